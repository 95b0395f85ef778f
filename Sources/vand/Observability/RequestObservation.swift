import Foundation
import Synchronization
import Hummingbird
import Logging
import VanServices

/// Gives every request an id (a sane incoming `X-Request-Id`, else a new one) that is
/// on every log line of the request and in the response's `X-Request-Id`, and records
/// count and latency by matched route and status.
struct RequestObservation: RouterMiddleware {
    typealias Context = AppRequestContext
    let metrics: VandMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = Self.requestID(request.headers[.init("X-Request-Id")!])
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        let start = ContinuousClock.now
        // ErrorResponder (inside this one) has answered every error already.
        var response = try await next(request, context)
        response.headers[.init("X-Request-Id")!] = id
        record(request, context, status: response.status.code, since: start)
        return response
    }

    private func record(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let route = context.endpointPath.map {
            $0.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
        }
        metrics.request(
            method: request.method.rawValue, route: route.map { "/" + $0 } ?? "unmatched", status: status, duration: ContinuousClock.now - start)
    }

    /// An incoming id if it is short and plain, else a fresh one.
    static func requestID(_ incoming: String?) -> String {
        if let incoming, (8...64).contains(incoming.count), incoming.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) {
            return incoming
        }
        return RequestIDs.next()
    }
}

/// Request ids this process makes: 8 random hex digits drawn once, a dash, and a counter in
/// 12 hex digits (`3f9a1c2b-00000000002a`): unique in the process, and across processes but
/// for a 1 in 4 billion draw. A fresh UUID per request (a `getrandom` call, then `sprintf` for
/// its text) was 3 % of `vand`'s CPU serving `/healthz`.
enum RequestIDs {
    private static let prefix: [UInt8] = {
        var random = SystemRandomNumberGenerator()
        return hex(UInt64(random.next() as UInt32), digits: 8)
    }()
    private static let counter = Atomic<UInt64>(0)

    /// The next id.
    static func next() -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return String(decoding: prefix + [UInt8(ascii: "-")] + hex(n, digits: 12), as: UTF8.self)
    }

    private static func hex(_ value: UInt64, digits: Int) -> [UInt8] {
        let table = Array("0123456789abcdef".utf8)
        return (0..<digits).reversed().map { table[Int((value >> (UInt64($0) * 4)) & 0xf)] }
    }
}
