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
    /// Set when the server did not answer in time: the protocol state is unknown, so the
    /// handle is never used again (only closed).
    private var broken = false
    /// How long to wait for an answer; see ``PGConfiguration/responseTimeout``.
    private var responseTimeout: Duration?

    /// Opens a connection. Blocks; call it from a dedicated thread.
    public init(configuration: PGConfiguration) throws(PGError) {
        try configuration.validate()
        self.configuration = configuration
        self.responseTimeout = configuration.responseTimeout
        // Earlier keywords are defaults; the connection string (expanded from
        // dbname) overrides them, so a URL's own connect_timeout wins. The session
        // timeouts ride in `options` after it (merged with the string's own options).
        var keywords = configuration.defaultParameters.map(\.0)
        var values = configuration.defaultParameters.map(\.1)
        if !configuration.connectionString.isEmpty {
            keywords.append("dbname")
            values.append(configuration.connectionString)
        }
        if let options = configuration.startupOptions {
            keywords.append("options")
            values.append(options)
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

    /// Whether the connection is still usable as far as libpq knows (no I/O). A broken one
    /// must be dropped, not reused.
    public var isHealthy: Bool {
        !closed && !broken && PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// Whether an idle connection is still alive, checked before it is lent. In the common
    /// case this costs one `poll` with no wait and no round trip: a quiet socket is alive.
    /// Data or end-of-file waiting on an idle connection means the server spoke unasked —
    /// usually the notice it sends before closing (shutdown, restart, a terminated backend) —
    /// so libpq reads it, and only if the connection still looks fine is it asked a trivial
    /// question, answered within `timeout`.
    public func isAlive(timeout: Duration = .seconds(2)) -> Bool {
        guard isHealthy else { return false }
        let socket = PQsocket(handle)
        guard socket >= 0 else { return false }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, 0)
        if ready == 0 { return true }
        if ready < 0 && errno != EINTR { return false }
        if Int32(descriptor.revents) & (POLLERR | POLLNVAL) != 0 { return false }
        // Readable or hung up: let libpq read what is there (a hang-up shows as end-of-file).
        guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else { return false }
        // In doubt: one round trip with a deadline.
        let saved = responseTimeout
        responseTimeout = min(timeout, saved ?? timeout)
        defer { responseTimeout = saved }
        do {
            try execute(simple: "")
            return isHealthy
        } catch {
            return false
        }
    }

    /// Runs `body` with no `statement_timeout` and no client-side answer deadline
    /// (migrations, which may take long or wait for another process's lock), then
    /// restores both. Costs two round trips.
    public func withoutStatementTimeout<Value>(_ body: () throws -> Value) throws -> Value {
        let saved = responseTimeout
        try execute(simple: "SET statement_timeout = 0")
        responseTimeout = nil
        defer {
            responseTimeout = saved
            let restore = configuration.statementTimeout.map { "SET statement_timeout = \($0.wholeMilliseconds)" } ?? "RESET statement_timeout"
            _ = try? execute(simple: restore)
        }
        return try body()
    }

    /// The server process id, e.g. for `pg_terminate_backend` in tests.
    public var backendPID: Int32 { closed ? 0 : PQbackendPID(handle) }

    /// Runs one statement with bind parameters and returns its rows.
    @discardableResult
    public func query(_ query: SQLQuery) throws(PGError) -> PGRows {
        let result = try run(query)
        defer { PQclear(result) }
        return copyRows(result)
    }

    /// Runs one statement and decodes each row where libpq holds it (``PGResultRow``: no copy
    /// of the cells, no `String` per cell), for the hot read paths. With `results: .binary`
    /// the server sends the columns in binary (``PGResultFormat``): every column must then be
    /// of a text type or of one its decoder reads in binary.
    public func query<Row>(_ query: SQLQuery, results format: PGResultFormat = .text, rows decode: (PGResultRow) throws -> Row) throws -> [Row] {
        let result = try run(query, results: format)
        defer { PQclear(result) }
        let rowCount = PQntuples(result)
        let columnCount = Int(PQnfields(result))
        // The names once per result, for rows read by name (``PGResultRow/decode(_:_:)``).
        let names = (0..<Int32(columnCount)).map { String(cString: PQfname(result, $0)) }
        var rows: [Row] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            rows.append(try decode(PGResultRow(result: result, row: row, columnCount: columnCount, format: format, names: names)))
        }
        return rows
    }

    /// Sends `query` and returns its successful result, which the caller must `PQclear`.
    private func run(_ query: SQLQuery, results format: PGResultFormat = .text) throws(PGError) -> OpaquePointer {
        try ensureUsable()
        if query.isPrepared { return try runPrepared(query, results: format) }
        let sent = withCStringArray(query.binds) { values in
            query.types.withUnsafeBufferPointer { types in
                PQsendQueryParams(handle, query.sql, Int32(query.binds.count), types.baseAddress, values, nil, nil, format.rawValue)
            }
        }
        return try checked(try awaitResult(sent: sent == 1))
    }

    /// A prepared statement's identity on a connection: its text and parameter types.
    private struct StatementKey: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// Names of this connection's prepared statements, by SQL text and parameter types.
    private var statements: [StatementKey: String] = [:]

    /// `query` as a named prepared statement: prepared on its first run on this connection
    /// (a new connection, e.g. after a server restart, prepares again), then only bound and run.
    private func runPrepared(_ query: SQLQuery, results format: PGResultFormat) throws(PGError) -> OpaquePointer {
        let key = StatementKey(sql: query.sql, types: query.types)
        let name: String
        if let known = statements[key] {
            name = known
        } else {
            name = "vand_\(statements.count + 1)"
            let sent = query.types.withUnsafeBufferPointer { types in
                PQsendPrepare(handle, name, query.sql, Int32(query.types.count), types.baseAddress)
            }
            PQclear(try checked(try awaitResult(sent: sent == 1)))
            statements[key] = name
        }
        let sent = withCStringArray(query.binds) { values in
            PQsendQueryPrepared(handle, name, Int32(query.binds.count), values, nil, nil, format.rawValue)
        }
        return try checked(try awaitResult(sent: sent == 1))
    }

    /// Runs one statement and returns how many rows it touched.
    @discardableResult
    public func execute(_ query: SQLQuery) throws(PGError) -> Int {
        try self.query(query).affectedRows
    }

    /// Runs SQL text that may hold several statements and takes no parameters
    /// (migrations, fixed session settings). Never pass user text here.
    public func execute(simple sql: String) throws(PGError) {
        try ensureUsable()
        PQclear(try checked(try awaitResult(sent: PQsendQuery(handle, sql) == 1)))
    }

    /// Quotes an identifier (e.g. a LISTEN channel) with libpq's own escaping.
    public func escapeIdentifier(_ identifier: String) throws(PGError) -> String {
        try ensureUsable()
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

    private func ensureUsable() throws(PGError) {
        if closed { throw PGError(kind: .connectionLost, message: "the connection is closed") }
        if broken { throw PGError(kind: .timedOut, message: "an earlier statement got no answer in time") }
    }

    /// Waits for the whole answer to the statement just sent (blocking mode: it is sent in
    /// full) like `PQexec` does, but gives up after ``responseTimeout``. Returns the first
    /// error result, else the last result.
    private func awaitResult(sent: Bool) throws(PGError) -> OpaquePointer? {
        guard sent else { return nil }  // checked() turns that into the connection's error
        let deadline = responseTimeout.map { ContinuousClock.now + $0 }
        var kept: OpaquePointer?
        while true {
            while PQisBusy(handle) == 1 {
                try waitReadable(until: deadline)
                if PQconsumeInput(handle) == 0 { break }  // PQgetResult reports the failure
            }
            guard let next = PQgetResult(handle) else { return kept }
            if let previous = kept {
                if PQresultStatus(previous) == PGRES_FATAL_ERROR {
                    PQclear(next)
                    continue
                }
                PQclear(previous)
            }
            kept = next
            switch PQresultStatus(next) {
            case PGRES_COPY_IN, PGRES_COPY_OUT, PGRES_COPY_BOTH: return kept
            default: if PQstatus(handle) != CONNECTION_OK { return kept }
            }
        }
    }

    /// Waits until the socket is readable, or throws ``PGError/Kind/timedOut`` at the
    /// deadline and marks the connection broken (its answer may still be on the way).
    private func waitReadable(until deadline: ContinuousClock.Instant?) throws(PGError) {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return }
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - ContinuousClock.now
                guard left > .zero else {
                    broken = true
                    throw PGError(kind: .timedOut, message: "no answer from the server within \(responseTimeout ?? .zero)")
                }
                timeout = Int32(clamping: max(1, left.wholeMilliseconds))
            }
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, timeout)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { return }  // PQconsumeInput will report the failure
        }
    }

    var lastError: String {
        configuration.redact(String(cString: PQerrorMessage(handle)).trimmingTrailingWhitespace())
    }

    /// The result if it succeeded; otherwise clears it and throws its error.
    private func checked(_ result: OpaquePointer?) throws(PGError) -> OpaquePointer {
        guard let result else {
            throw PGError(kind: PQstatus(handle) == CONNECTION_OK ? .server : .connectionLost, message: lastError)
        }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return result
        default:
            defer { PQclear(result) }
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

    /// A successful result's rows, copied out of libpq.
    private func copyRows(_ result: OpaquePointer) -> PGRows {
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
