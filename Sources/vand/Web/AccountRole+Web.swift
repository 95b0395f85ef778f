import VanDomain

extension AccountRole {
    /// Where the web app sends this role after sign-in and from `/`: a rider's home page, a
    /// driver's run, a dispatcher's console.
    var webHome: String {
        switch self {
        case .rider: "/"
        case .driver: "/driver"
        case .dispatcher: "/dispatch"
        }
    }

    /// The stylesheets this role's pages add to the app's own.
    var webStyles: [String] {
        switch self {
        case .rider: []
        case .driver: ["driver.css"]
        case .dispatcher: ["dispatch.css"]
        }
    }

    /// The link back to ``webHome`` in this role's words.
    var webHomeWords: String {
        switch self {
        case .rider: "Go to the home page"
        case .driver: "Go to today's run"
        case .dispatcher: "Go to the queue"
        }
    }
}
