/// A five-character SQLSTATE code from PostgreSQL, e.g. `23505` for a unique violation.
public struct SQLState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The five-character code.
    public let rawValue: String

    /// Wraps a code as received from the server.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `23505`: a row with the same key exists.
    public static let uniqueViolation = SQLState(rawValue: "23505")
    /// `23P01`: an exclusion constraint (e.g. overlapping van bookings) refused the row.
    public static let exclusionViolation = SQLState(rawValue: "23P01")
    /// `23503`: a referenced row does not exist.
    public static let foreignKeyViolation = SQLState(rawValue: "23503")
    /// `23514`: a CHECK constraint refused the row.
    public static let checkViolation = SQLState(rawValue: "23514")
    /// `40001`: a serializable transaction lost a race; retry it.
    public static let serializationFailure = SQLState(rawValue: "40001")
    /// `40P01`: the server broke a deadlock by aborting this transaction; retry it.
    public static let deadlockDetected = SQLState(rawValue: "40P01")
    /// `42P01`: the table does not exist (migrations not applied?).
    public static let undefinedTable = SQLState(rawValue: "42P01")
    /// `42601`: the SQL text does not parse.
    public static let syntaxError = SQLState(rawValue: "42601")
    /// `57P01`: the server is shutting down and closed this session.
    public static let adminShutdown = SQLState(rawValue: "57P01")

    /// Class 08 (connection exception) and the shutdown codes of class 57P.
    public var isConnectionProblem: Bool {
        rawValue.hasPrefix("08") || rawValue.hasPrefix("57P")
    }

    /// Whether running the whole transaction again may succeed.
    public var isRetryable: Bool {
        self == .serializationFailure || self == .deadlockDetected
    }

    public var description: String { rawValue }
}

/// An error from the PostgreSQL client. Its description never contains the
/// connection password or the bound parameter values.
public struct PGError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in the terms a caller acts on.
    public enum Kind: Sendable, Hashable {
        /// A new connection could not be opened (server down, bad address, bad credentials).
        case connectionFailed
        /// An open connection broke; the pool drops it.
        case connectionLost
        /// The server refused the statement; see ``sqlState``.
        case server
        /// A column could not be turned into the requested Swift type.
        case decoding
        /// The pool was shut down.
        case poolClosed
        /// No connection was free within the pool's deadline, or the server did not answer
        /// in time (frozen or cut off); the connection is dropped.
        case timedOut
    }

    /// The category of failure.
    public let kind: Kind
    /// The server's SQLSTATE, when the server sent one.
    public let sqlState: SQLState?
    /// The primary message (already free of the password).
    public let message: String
    /// The server's DETAIL line, if any.
    public let detail: String?
    /// The name of the violated constraint, if any.
    public let constraint: String?

    /// Creates an error; callers outside the client rarely need this.
    public init(kind: Kind, sqlState: SQLState? = nil, message: String, detail: String? = nil, constraint: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.constraint = constraint
    }

    /// True when the connection (not the statement) is at fault; the work may succeed on a new connection.
    public var isConnectionProblem: Bool {
        kind == .connectionFailed || kind == .connectionLost || kind == .timedOut || (sqlState?.isConnectionProblem ?? false)
    }

    public var description: String {
        var text: String
        switch kind {
        case .connectionFailed: text = "could not connect to PostgreSQL: \(message)"
        case .connectionLost: text = "lost the connection to PostgreSQL: \(message)"
        case .server: text = "PostgreSQL refused the statement: \(message)"
        case .decoding: text = "could not decode a PostgreSQL value: \(message)"
        case .poolClosed: text = "the PostgreSQL pool is shut down: \(message)"
        case .timedOut: text = "PostgreSQL timed out: \(message)"
        }
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        if let detail { text += " — \(detail)" }
        return text
    }
}
