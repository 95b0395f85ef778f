import CPostgres
import Foundation
import Glibc

/// One libpq connection. Its calls block, so it is only ever used on a
/// dedicated thread (the pool's thread pool or the listener's own thread),
/// and by one thread at a time — the pool enforces that, hence `@unchecked`.
public final class PGConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    private let configuration: PGConfiguration
    private var closed = false

    /// Opens a connection. Blocks; call it from a dedicated thread.
    public init(configuration: PGConfiguration) throws(PGError) {
        try configuration.validate()
        self.configuration = configuration
        // Earlier keywords are defaults; the connection string (expanded from
        // dbname) overrides them, so a URL's own connect_timeout wins.
        var keywords = ["connect_timeout", "application_name", "client_encoding"]
        var values = [String(configuration.connectTimeoutSeconds), configuration.applicationName, "UTF8"]
        if !configuration.connectionString.isEmpty {
            keywords.append("dbname")
            values.append(configuration.connectionString)
        }
        let connection = withCStringArray(keywords) { keywordPointers in
            withCStringArray(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw PGError(kind: .connectionFailed, message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = configuration.redact(String(cString: PQerrorMessage(connection)).trimmingTrailingWhitespace())
            PQfinish(connection)
            throw PGError(kind: .connectionFailed, message: message)
        }
        handle = connection
        PQsetNoticeProcessor(handle, { _, _ in }, nil)  // server NOTICEs are not errors; drop them
        // Fixed session settings the text codecs rely on.
        try execute(simple: "SET TimeZone TO 'UTC'; SET DateStyle TO 'ISO, YMD'; SET bytea_output TO 'hex'; SET extra_float_digits TO 3")
    }

    deinit {
        if !closed { PQfinish(handle) }
    }

    /// Whether the connection is still usable. A broken one must be dropped, not reused.
    public var isHealthy: Bool {
        !closed && PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// The server process id, e.g. for `pg_terminate_backend` in tests.
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// Runs one statement with bind parameters and returns its rows.
    @discardableResult
    public func query(_ query: SQLQuery) throws(PGError) -> PGRows {
        if query.isPrepared { return try runPrepared(query) }
        let result: OpaquePointer? = withCStringArray(query.binds) { values in
            query.types.withUnsafeBufferPointer { types in
                PQexecParams(handle, query.sql, Int32(query.binds.count), types.baseAddress, values, nil, nil, 0)
            }
        }
        return try consume(result)
    }

    /// Names of this connection's prepared statements, by parameter types and SQL text.
    private var statements: [String: String] = [:]

    /// `query` as a named prepared statement: prepared on its first run on this connection
    /// (a new connection, e.g. after a server restart, prepares again), then only bound and run.
    private func runPrepared(_ query: SQLQuery) throws(PGError) -> PGRows {
        let key = "\(query.types)\u{0}\(query.sql)"
        let name: String
        if let known = statements[key] {
            name = known
        } else {
            name = "vand_\(statements.count + 1)"
            let prepared = query.types.withUnsafeBufferPointer { types in
                PQprepare(handle, name, query.sql, Int32(query.types.count), types.baseAddress)
            }
            _ = try consume(prepared)
            statements[key] = name
        }
        let result: OpaquePointer? = withCStringArray(query.binds) { values in
            PQexecPrepared(handle, name, Int32(query.binds.count), values, nil, nil, 0)
        }
        return try consume(result)
    }

    /// Runs one statement and returns how many rows it touched.
    @discardableResult
    public func execute(_ query: SQLQuery) throws(PGError) -> Int {
        try self.query(query).affectedRows
    }

    /// Runs SQL text that may hold several statements and takes no parameters
    /// (migrations, fixed session settings). Never pass user text here.
    public func execute(simple sql: String) throws(PGError) {
        _ = try consume(PQexec(handle, sql))
    }

    /// Quotes an identifier (e.g. a LISTEN channel) with libpq's own escaping.
    public func escapeIdentifier(_ identifier: String) throws(PGError) -> String {
        guard let escaped = PQescapeIdentifier(handle, identifier, identifier.utf8.count) else {
            throw PGError(kind: .server, message: "cannot quote identifier: \(lastError)")
        }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }

    /// Closes the connection. Safe to call twice.
    public func close() {
        guard !closed else { return }
        closed = true
        PQfinish(handle)
    }

    var rawHandle: OpaquePointer { handle }

    var lastError: String {
        configuration.redact(String(cString: PQerrorMessage(handle)).trimmingTrailingWhitespace())
    }

    private func consume(_ result: OpaquePointer?) throws(PGError) -> PGRows {
        guard let result else {
            throw PGError(kind: PQstatus(handle) == CONNECTION_OK ? .server : .connectionLost, message: lastError)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            let rowCount = Int(PQntuples(result))
            let columnCount = Int(PQnfields(result))
            var columns: [String] = []
            columns.reserveCapacity(columnCount)
            for column in 0..<columnCount { columns.append(String(cString: PQfname(result, Int32(column)))) }
            var cells: [[String?]] = []
            cells.reserveCapacity(rowCount)
            for row in 0..<rowCount {
                var values: [String?] = []
                values.reserveCapacity(columnCount)
                for column in 0..<columnCount {
                    if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
                        values.append(nil)
                    } else {
                        values.append(String(cString: PQgetvalue(result, Int32(row), Int32(column))))
                    }
                }
                cells.append(values)
            }
            let affected = Int(String(cString: PQcmdTuples(result))) ?? rowCount
            return PGRows(columns: columns, cells: cells, affectedRows: affected)
        default:
            func field(_ code: Character) -> String? {
                guard let value = PQresultErrorField(result, Int32(code.asciiValue!)) else { return nil }
                return String(cString: value)
            }
            let sqlState = field("C").map(SQLState.init(rawValue:))
            let lost = PQstatus(handle) != CONNECTION_OK
            let message = field("M") ?? lastError
            throw PGError(
                kind: lost ? .connectionLost : .server,
                sqlState: sqlState,
                message: configuration.redact(message),
                detail: field("D").map(configuration.redact),
                constraint: field("n")
            )
        }
    }
}

/// Passes an array of optional strings to C as `const char* const*`, NULL for nil.
func withCStringArray<Result>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { buffer in
        buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { body($0) }
    }
}

func withCStringArray<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    withCStringArray(strings.map(Optional.some), body)
}
