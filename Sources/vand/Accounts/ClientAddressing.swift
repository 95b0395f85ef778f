import Foundation
import Glibc
import Hummingbird
import NIOCore
import VanDomain
import VanServices

/// Which client a request comes from, for sign-in throttling. The peer's address, unless
/// the peer is a proxy listed in `VAND_TRUSTED_PROXIES`: then `X-Forwarded-For` is read from
/// the right, skipping trusted proxies, and the first address not among them is the client.
/// A header from anyone else is ignored, so a client cannot pick its own address.
struct TrustedProxies: Sendable, Equatable {
    /// The proxies' addresses, canonical (``canonical(_:)``).
    let addresses: Set<String>

    /// No proxy is trusted: the peer is the client.
    static let none = TrustedProxies(addresses: [])

    init(addresses: Set<String>) { self.addresses = addresses }

    /// Reads `VAND_TRUSTED_PROXIES`: IP addresses separated by commas or spaces.
    static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> TrustedProxies {
        guard let text = SettingSpec.trustedProxies.text(environment) else { return .none }
        var addresses: Set<String> = []
        for item in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            guard let address = canonical(String(item)) else {
                throw SettingSpec.trustedProxies.error(
                    text, expected: "IP addresses separated by commas, e.g. 127.0.0.1,::1 (\"\(item)\" is not one)")
            }
            addresses.insert(address)
        }
        return TrustedProxies(addresses: addresses)
    }

    /// The client of a request from `peer` carrying these `X-Forwarded-For` values.
    func client(peer: String?, forwardedFor: [String]) -> ClientAddress {
        guard var candidate = peer.flatMap(Self.canonical) else { return .unknown }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard addresses.contains(candidate) else { break }
            // A malformed hop was written by no proxy we trust: the last trusted hop's sender is all we know.
            guard let address = Self.canonical(hop) else { break }
            candidate = address
        }
        return ClientAddress(candidate)
    }

    /// An IPv4 or IPv6 address in one spelling (`::ffff:192.0.2.7` is `192.0.2.7`; brackets
    /// and a zone are dropped), or nil when `text` is not an address.
    static func canonical(_ text: String) -> String? {
        var text = text.hasVisibleASCIIEnds ? text : text.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") { text = String(text[text.index(after: text.startIndex)..<end]) }
        if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
        var v4 = in_addr(), v6 = in6_addr()
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if inet_pton(AF_INET, text, &v4) == 1 {
            guard inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)) != nil else { return nil }
            return string(buffer)
        }
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return string(buffer)
    }

    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Works out each request's ``ClientAddress`` once, for the sign-in routes.
struct ClientAddressing: RouterMiddleware {
    typealias Context = AppRequestContext
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let forwarded = request.headers[values: .init("X-Forwarded-For")!]
        context.client = proxies.client(peer: context.peer, forwardedFor: forwarded)
        return try await next(request, context)
    }
}
