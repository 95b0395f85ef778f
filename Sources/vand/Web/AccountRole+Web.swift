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
}
