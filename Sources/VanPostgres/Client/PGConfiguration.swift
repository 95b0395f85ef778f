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
    /// TCP keepalive probes, so a peer that vanished without a word is noticed
    /// (nil: the operating system's defaults, typically two hours). Ignored on Unix sockets.
    public var keepalives: Keepalives?
    /// `tcp_user_timeout`: how long sent data may stay unacknowledged before the
    /// kernel drops the connection (nil: the operating system's default). Ignored on Unix sockets.
    public var tcpUserTimeout: Duration?
    /// The server's `statement_timeout` for every session (nil: the server's setting).
    public var statementTimeout: Duration?
    /// The server's `idle_in_transaction_session_timeout` (nil: the server's setting).
    public var idleInTransactionSessionTimeout: Duration?
    /// How long the client waits for the server's answer to a statement before it gives
    /// the connection up as dead (nil: forever). Catches what no server-side timeout can:
    /// a server that is frozen or cut off. Keep it above ``statementTimeout``.
    public var responseTimeout: Duration?

    /// TCP keepalive settings: the first probe after `idle` of silence, then one every
    /// `interval`; `count` unanswered probes and the connection is dead.
    public struct Keepalives: Sendable, Equatable {
        /// Silence before the first probe.
        public var idle: Duration
        /// Time between probes.
        public var interval: Duration
        /// Unanswered probes before the connection is dropped.
        public var count: Int

        /// Creates keepalive settings.
        public init(idle: Duration, interval: Duration, count: Int) {
            self.idle = idle
            self.interval = interval
            self.count = count
        }
    }

    /// Creates a configuration. Timeouts and keepalives left nil keep libpq's and the server's defaults.
    public init(
        connectionString: String, applicationName: String = "vand", connectTimeoutSeconds: Int = 5,
        keepalives: Keepalives? = nil, tcpUserTimeout: Duration? = nil, statementTimeout: Duration? = nil,
        idleInTransactionSessionTimeout: Duration? = nil, responseTimeout: Duration? = nil
    ) {
        self.connectionString = connectionString
        self.applicationName = applicationName
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.keepalives = keepalives
        self.tcpUserTimeout = tcpUserTimeout
        self.statementTimeout = statementTimeout
        self.idleInTransactionSessionTimeout = idleInTransactionSessionTimeout
        self.responseTimeout = responseTimeout
    }

    /// libpq keywords sent before the connection string, so a string's own values win.
    var defaultParameters: [(String, String)] {
        var parameters = [
            ("connect_timeout", String(connectTimeoutSeconds)), ("application_name", applicationName), ("client_encoding", "UTF8"),
        ]
        if let keepalives {
            parameters += [
                ("keepalives", "1"), ("keepalives_idle", String(max(1, keepalives.idle.wholeSeconds))),
                ("keepalives_interval", String(max(1, keepalives.interval.wholeSeconds))), ("keepalives_count", String(keepalives.count)),
            ]
        }
        if let tcpUserTimeout { parameters.append(("tcp_user_timeout", String(tcpUserTimeout.wholeMilliseconds))) }
        return parameters
    }

    /// The startup `options` (`-c name=value …`) carrying the session timeouts, so setting
    /// them costs no round trip. Sent after the connection string; the string's own
    /// `options` (or `PGOPTIONS`) are kept and, coming later, win over ours.
    var startupOptions: String? {
        var settings: [String] = []
        if let statementTimeout { settings.append("-c statement_timeout=\(statementTimeout.wholeMilliseconds)") }
        if let idleInTransactionSessionTimeout {
            settings.append("-c idle_in_transaction_session_timeout=\(idleInTransactionSessionTimeout.wholeMilliseconds)")
        }
        guard !settings.isEmpty else { return nil }
        let theirs = Self.parameter("options", in: connectionString) ?? getenv("PGOPTIONS").map { String(cString: $0) }
        if let theirs, !theirs.isEmpty { settings.append(theirs) }
        return settings.joined(separator: " ")
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

extension Duration {
    /// The duration in whole milliseconds (rounded down), as libpq and the server take it.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The duration in whole seconds (rounded down).
    var wholeSeconds: Int { Int(components.seconds) }
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
