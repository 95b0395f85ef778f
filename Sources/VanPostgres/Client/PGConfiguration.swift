import Foundation
import Glibc
import CPostgres

/// Where and how to connect: a libpq connection string (URI or key=value) or,
/// when empty, libpq's standard `PG*` environment variables.
public struct PGConfiguration: Sendable, CustomStringConvertible {
    /// A `postgresql://` URI or `key=value` string; empty means use `PGHOST`, `PGUSER`, ….
    public var connectionString: String
    /// Shown in `pg_stat_activity`.
    public var applicationName: String
    /// Seconds to wait for a new connection before giving up.
    public var connectTimeoutSeconds: Int

    /// Creates a configuration.
    public init(connectionString: String, applicationName: String = "vand", connectTimeoutSeconds: Int = 5) {
        self.connectionString = connectionString
        self.applicationName = applicationName
        self.connectTimeoutSeconds = connectTimeoutSeconds
    }

    /// The password in the connection string or `PGPASSWORD`, so messages can be scrubbed of it.
    var secrets: [String] {
        var found: [String] = []
        if let password = Self.parameter("password", in: connectionString), !password.isEmpty {
            found.append(password)
            // A URI may carry it percent-encoded; scrub that spelling too.
            if let encoded = password.addingPercentEncodingForURI(), encoded != password { found.append(encoded) }
        }
        if let env = getenv("PGPASSWORD").map({ String(cString: $0) }), !env.isEmpty { found.append(env) }
        return found
    }

    /// Removes every secret from a message before it is shown or logged.
    func redact(_ message: String) -> String {
        var text = message
        for secret in secrets { text = text.replacingAll(secret, with: "********") }
        return text
    }

    /// Reads one parameter (e.g. `host`, `dbname`) from a connection string with libpq's own parser.
    static func parameter(_ name: String, in connectionString: String) -> String? {
        guard !connectionString.isEmpty else { return nil }
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &errorMessage) else {
            if let errorMessage { PQfreemem(errorMessage) }
            return nil
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == name {
                return option.pointee.val.map { String(cString: $0) }
            }
            option += 1
        }
        return nil
    }

    /// Whether libpq can parse the connection string; the error names the problem, never the password.
    public func validate() throws(PGError) {
        guard !connectionString.isEmpty else { return }
        var errorMessage: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(connectionString, &errorMessage) {
            PQconninfoFree(options)
            return
        }
        let message = errorMessage.map { String(cString: $0) } ?? "unparseable connection string"
        if let errorMessage { PQfreemem(errorMessage) }
        throw PGError(kind: .connectionFailed, message: redact(message.trimmingTrailingWhitespace()))
    }

    /// The connection target without credentials, for logs: `dbname@host`.
    public var description: String {
        let host = Self.parameter("host", in: connectionString) ?? "(PGHOST or default)"
        let db = Self.parameter("dbname", in: connectionString) ?? "(PGDATABASE or default)"
        return "postgres \(db) at \(host)"
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        result += rest
        return result
    }

    func trimmingTrailingWhitespace() -> String {
        var text = self
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return text
    }

    func addingPercentEncodingForURI() -> String? {
        var result = ""
        for byte in utf8 {
            let c = Character(UnicodeScalar(byte))
            if c.isLetter && byte < 128 || c.isNumber && byte < 128 || "-._~".contains(c) {
                result.append(c)
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }

    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
