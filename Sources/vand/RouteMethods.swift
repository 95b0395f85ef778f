import Hummingbird
import Synchronization

/// Which methods each registered path answers, so a known path asked with another method
/// gets 405 with `Allow` (RFC 9110 §15.5.6) instead of the router's 404. Loaded once from
/// the router after every route is registered (``buildRoutes(configuration:database:clock:metrics:routeChanges:pages:streams:)``)
/// and consulted only by ``ErrorResponder`` when the router found no route: no cost on a hit.
final class RouteMethods: Sendable {
    private let routes = Mutex<[(path: RouterPath, methods: Set<HTTPRequest.Method>)]>([])

    init() {}

    /// Takes the routes of a fully built router.
    func load<Context>(from router: Router<Context>) {
        var table: [(path: RouterPath, methods: Set<HTTPRequest.Method>)] = []
        for route in router.routes {
            if let index = table.firstIndex(where: { $0.path.description == route.path.description }) {
                table[index].methods.insert(route.method)
            } else {
                table.append((route.path, [route.method]))
            }
        }
        routes.withLock { $0 = table }
    }

    /// The methods registered for every route pattern `path` matches, sorted; empty for an unknown path.
    func allowed(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        let methods = routes.withLock { table in
            table.filter { Self.matches($0.path.components, segments[...]) }.reduce(into: Set<HTTPRequest.Method>()) { $0.formUnion($1.methods) }
        }
        return methods.sorted { $0.rawValue < $1.rawValue }
    }

    private static func matches(_ pattern: [RouterPath.Element], _ segments: ArraySlice<Substring>) -> Bool {
        guard let first = pattern.first else { return segments.isEmpty }
        if first.description == "**" { return true }
        guard let segment = segments.first, first ~= segment else { return false }
        return matches(Array(pattern.dropFirst()), segments.dropFirst())
    }
}

extension Problem {
    /// 405: the path exists, the method does not; `Allow` lists the ones that do.
    static func methodNotAllowed(_ method: HTTPRequest.Method, allowed: [HTTPRequest.Method]) -> Problem {
        let list = allowed.map(\.rawValue).joined(separator: ", ")
        return Problem(
            status: .methodNotAllowed, slug: "method-not-allowed", title: "Method not allowed",
            detail: "This address does not answer \(method.rawValue). It answers \(list).",
            headers: [.allow: list])
    }
}
