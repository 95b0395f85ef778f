import VanServices

/// How long a connection may take to ask, how long it may idle, and how many may be open
/// (VAND_HEAD_TIMEOUT, VAND_IDLE_TIMEOUT, VAND_MAX_CONNECTIONS).
struct ConnectionSettings: Sendable, Equatable {
    /// A whole request head must arrive within this of connecting, or of its first byte.
    var headTimeout: Duration = .seconds(5)
    /// A kept-alive connection with no request, or a request whose body stalls, is closed after this.
    var idleTimeout: Duration = .seconds(75)
    /// The head timeout of a connection in the reserve (over the cap), at most `headTimeout`: a
    /// probe sends its head at once. Not a setting; a test holding reserve slots open lengthens it.
    var reserveHeadTimeout: Duration = .seconds(1)
    /// Connections served; nil: as many as the open-file limit allows (``ConnectionCaps/init(fileLimit:poolSize:asked:)``).
    var maxConnections: Int?
    /// The dispatchers' live console streams open at once on this vand, all together; the next
    /// one gets a 503 with Retry-After (a console has a handful of screens, not thousands).
    var consoleStreams = 64

    static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> ConnectionSettings {
        var settings = ConnectionSettings()
        settings.headTimeout = .milliseconds(Int64((try SettingSpec.headTimeout.number(environment) * 1_000).rounded()))
        settings.idleTimeout = .milliseconds(Int64((try SettingSpec.idleTimeout.number(environment) * 1_000).rounded()))
        if SettingSpec.maxConnections.text(environment) != nil {
            settings.maxConnections = try SettingSpec.maxConnections.integer(environment)
        }
        return settings
    }
}

/// The connection caps for a process's open-file limit: `served` connections are served as
/// usual; the next `reserve` are answered only on `/healthz` and `/readyz` (anything else gets a
/// fast 503 with Retry-After), so probes still reach a full server; past both, a connection is
/// closed as soon as it is accepted. Together they stay `spare` files below the limit, which
/// leaves room for the database pool, LISTEN connections, the webhook client and files, so
/// accepting never fails with EMFILE.
struct ConnectionCaps: Sendable, Equatable, CustomStringConvertible {
    /// Files kept for everything that is not an HTTP connection, besides the pool's.
    static let spareFiles = 128

    /// Connections served as usual.
    let served: Int
    /// Connections past `served` that still get an answer (health, or 503).
    let reserve: Int
    /// The most `served` could be under this file limit.
    let allowed: Int

    /// - Parameters:
    ///   - fileLimit: the soft RLIMIT_NOFILE vand runs with.
    ///   - poolSize: database connections in the pool.
    ///   - asked: VAND_MAX_CONNECTIONS, nil when unset.
    init(fileLimit: Int, poolSize: Int, asked: Int?) {
        let room = max(fileLimit - Self.spareFiles - poolSize, 8)
        allowed = room - min(max(room / 17, 4), 64)
        served = min(asked ?? allowed, allowed)
        reserve = min(min(max(served / 16, 4), 64), room - served)
    }

    /// Caps set directly (tests).
    init(served: Int, reserve: Int) {
        self.served = served
        self.reserve = reserve
        self.allowed = served
    }

    var description: String { "\(served) connections served, \(reserve) more answered only on /healthz and /readyz (else 503)" }
}
