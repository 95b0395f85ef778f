import Foundation

/// Every setting, one row each. To add one: a `static let` here, its entry in ``all``, a
/// reader beside the settings struct that uses it, then `scripts/settings-docs` to write
/// the README table and `deploy/vand.env.example` (`SettingsDocumentationTests` fails until
/// they match, and also if a `"VAND_…"` string in Sources is missing here).
extension SettingSpec {
    /// The rows in the order they are documented.
    public static let all: [SettingSpec] = [
        databaseURL, dataDirectory, poolSize,
        dbAcquireTimeout, dbStatementTimeout, dbIdleInTransactionTimeout,
        dbKeepalivesIdle, dbKeepalivesInterval, dbKeepalivesCount, dbTCPUserTimeout, readCacheMB,
        host, port, logLevel, metricsAddress, headTimeout, idleTimeout, maxConnections,
        timeZone, hotline, formsURL, autoApprove, pendingAlert, bookingHorizonDays, serviceCenter, serviceRadiusKm,
        lateCancelMinutes, onDemandMinutes, willCallMaxWait, secureCookies,
        bcryptCost, sessionIdleDays, temporaryPasswordDays, streamsPerRider, trustedProxies,
        reminderLead, etaLead, webhookURL, webhookSecret, webhookMaxAttempts,
        improveSeconds, replanSeconds, replanFrozen,
        noShowWait, positionStale, trailDays,
        sqlDirectory, webDirectory, openAPIPath,
    ]

    /// Variables that start with `VAND_` but are not settings of the daemon (no warning for them).
    public static let notSettings: Set<String> = ["VAND_TEST_DATABASE_URL", "VAND_BUILD_CONFIGURATION"]

    /// Names that were documented for a setting that reads another name; the start-up warning
    /// names the right one (deploy/vand.env.example once said VAND_REMINDER_LEAD_MINUTES).
    public static let formerNames: [String: String] = ["VAND_REMINDER_LEAD_MINUTES": "VAND_REMINDER_LEAD"]

    /// The row named `name`.
    public static func named(_ name: String) -> SettingSpec? { all.first { $0.name == name } }

    // MARK: The database

    public static let databaseURL = SettingSpec(
        "DATABASE_URL", default: nil, defaultWords: "unset: embedded",
        accepts: .text("a postgresql:// URI or a key=value string"), group: .database,
        production: "postgresql://vand:CHANGE-ME@db.internal:5432/vand?sslmode=verify-full", secret: true,
        help:
            "The PostgreSQL to use (libpq URI or key=value). Unset: libpq's PG* variables when PGHOST or PGDATABASE is set, else the embedded cluster in VAND_DATA_DIR (for laptops)."
    )
    public static let dataDirectory = SettingSpec(
        "VAND_DATA_DIR", default: nil, defaultWords: "/var/lib/vand/embedded as root, else ~/.local/state/vand/embedded",
        accepts: .text("a folder"), group: .database,
        help: "The embedded cluster's folder, shared by vand and vanadmin.")
    public static let poolSize = SettingSpec(
        "VAND_DB_POOL_SIZE", default: "8", accepts: .integer(1...200), group: .database, production: "8",
        help: "Database connections per process (8 measured best on 2 cores).")

    public static let dbAcquireTimeout = SettingSpec(
        "VAND_DB_ACQUIRE_TIMEOUT", default: "3", accepts: .number(0.1...300), group: .database, production: "3",
        help: "Seconds a request waits for a free connection before it gets 503.")
    public static let dbStatementTimeout = SettingSpec(
        "VAND_DB_STATEMENT_TIMEOUT", default: "5", accepts: .number(0...3600), group: .database, production: "5",
        help: "Seconds a statement may run (statement_timeout; 0: none); a connection with no answer 1 s later is dropped. Migrations run without it."
    )
    public static let dbIdleInTransactionTimeout = SettingSpec(
        "VAND_DB_IDLE_IN_TRANSACTION_TIMEOUT", default: "30", accepts: .number(0...3600), group: .database, production: "30",
        help: "Seconds a session may sit idle in a transaction (0: none).")
    public static let dbKeepalivesIdle = SettingSpec(
        "VAND_DB_KEEPALIVES_IDLE", default: "30", accepts: .number(1...7200), group: .database, production: "30",
        help: "TCP keepalives: seconds of silence before the first probe.")
    public static let dbKeepalivesInterval = SettingSpec(
        "VAND_DB_KEEPALIVES_INTERVAL", default: "10", accepts: .number(1...600), group: .database, production: "10",
        help: "Seconds between keepalive probes.")
    public static let dbKeepalivesCount = SettingSpec(
        "VAND_DB_KEEPALIVES_COUNT", default: "3", accepts: .integer(1...100), group: .database, production: "3",
        help: "Unanswered keepalive probes before the connection is dropped.")
    public static let dbTCPUserTimeout = SettingSpec(
        "VAND_DB_TCP_USER_TIMEOUT", default: "30", accepts: .number(0...3600), group: .database, production: "30",
        help: "Seconds sent data may go unacknowledged before the connection is dropped (tcp_user_timeout; 0: the kernel's default).")

    public static let readCacheMB = SettingSpec(
        "VAND_READ_CACHE_MB", default: "16", accepts: .integer(0...4096), group: .database, production: "16",
        help:
            "Memory for riders' upcoming-ride lists answered again until the database notifies a change (LISTEN vand_rider_changes, one more connection; at most 60 s). Another vand behind the same load balancer sees a change when the notification sent at commit reaches it. 0: off."
    )

    // MARK: Where vand listens

    public static let host = SettingSpec(
        "VAND_HOST", default: "127.0.0.1", accepts: .text("an address"), group: .server, production: "127.0.0.1",
        help: "The address to listen on; keep loopback behind the TLS proxy.")
    public static let port = SettingSpec(
        "VAND_PORT", default: "8080", accepts: .integer(0...65535), group: .server, production: "8080",
        help: "The port to listen on (0 picks a free one).")
    public static let logLevel = SettingSpec(
        "VAND_LOG_LEVEL", default: "info", accepts: .choice(["trace", "debug", "info", "notice", "warning", "error", "critical"]),
        group: .server, production: "info",
        help: "The lowest level logged.")

    public static let metricsAddress = SettingSpec(
        "VAND_METRICS_ADDRESS", default: nil, defaultWords: "unset: on VAND_PORT",
        accepts: .text("host:port, [IPv6]:port, or a port alone (then 127.0.0.1)"), group: .server, production: "127.0.0.1:9464",
        help:
            "Serve /metrics on its own listener and not on VAND_PORT; keep it off the public port. /healthz and /readyz answer there too (and on VAND_PORT), however full VAND_PORT is."
    )

    public static let headTimeout = SettingSpec(
        "VAND_HEAD_TIMEOUT", default: "5", accepts: .number(0.1...300), group: .server, production: "5",
        help:
            "Seconds a client has to send a whole request head, from connecting or from the first byte of its next request; then the connection is closed. Over the connection cap, min(1, this)."
    )
    public static let idleTimeout = SettingSpec(
        "VAND_IDLE_TIMEOUT", default: "75", accepts: .number(1...3600), group: .server, production: "75",
        help:
            "Seconds a kept-alive connection may sit idle between requests, or a request body may stall, before it is closed (longer than the proxy's upstream keep-alive). Notification streams are not idle."
    )
    public static let maxConnections = SettingSpec(
        "VAND_MAX_CONNECTIONS", default: nil, defaultWords: "the open-file limit less 128 and the pool, less 1/16 reserve",
        accepts: .integer(1...1_000_000), group: .server,
        help:
            "Open HTTP connections served (notification streams count). Never more than the open-file limit allows (vand raises its soft limit to the hard one at start and logs the caps). The next 1/16 more (4 to 64) are answered only on /healthz and /readyz, else 503 with Retry-After; beyond those a connection is closed at once."
    )

    // MARK: What riders see

    public static let timeZone = SettingSpec(
        "VAND_TIMEZONE", default: "America/New_York", accepts: .text("an IANA time zone"), group: .riders, production: "America/New_York",
        help: "The service time zone: hours, times shown and times read without an offset (vanadmin too).")
    /// Reads ``timeZone``.
    public static func serviceTimeZone(_ environment: [String: String]) throws(SettingError) -> TimeZone {
        let name = timeZone.text(environment) ?? timeZone.defaultValue!
        guard let zone = TimeZone(identifier: name) else { throw timeZone.error(name, expected: "an IANA time zone such as America/New_York") }
        return zone
    }

    public static let hotline = SettingSpec(
        "VAND_HOTLINE", default: nil, accepts: .text("a phone number, 3–40 characters"), group: .riders, production: "203-432-2324",
        help: "The office's number, shown to riders who must call.")
    public static let formsURL = SettingSpec(
        "VAND_FORMS_URL", default: nil, accepts: .text("an http(s) URL"), group: .riders,
        help: "The office's forms, linked from GET /v1/service and the web app.")
    public static let autoApprove = SettingSpec(
        "VAND_AUTO_APPROVE", default: "false", accepts: .boolean, group: .riders,
        help: "Approve bookings at once instead of waiting for the dispatcher.")
    public static let pendingAlert = SettingSpec(
        "VAND_PENDING_ALERT", default: "10", accepts: .number(1...1_440), group: .riders,
        help: "Minutes a ride may wait for the dispatcher's decision before the console lists it as an alert.")
    public static let bookingHorizonDays = SettingSpec(
        "VAND_BOOKING_HORIZON_DAYS", default: "14", accepts: .number(1...365), group: .riders,
        help: "How many days ahead riders may book.")
    public static let serviceCenter = SettingSpec(
        "VAND_SERVICE_CENTER", default: "41.3111,-72.9267", accepts: .text("lat,lon"), group: .riders,
        help: "The centre of the service area (default: Yale).")
    public static let serviceRadiusKm = SettingSpec(
        "VAND_SERVICE_RADIUS_KM", default: "8", accepts: .number(0.1...200), group: .riders,
        help: "Pickups and drop-offs within this many kilometres of the centre.")
    public static let lateCancelMinutes = SettingSpec(
        "VAND_LATE_CANCEL_MINUTES", default: "60", accepts: .number(0...1_440), group: .riders,
        help: "A cancellation this close to pickup is recorded as late.")
    public static let onDemandMinutes = SettingSpec(
        "VAND_ON_DEMAND_MINUTES", default: "5", accepts: .number(0...120), group: .riders,
        help: "An on-demand ride is picked up this many minutes after the request.")
    public static let willCallMaxWait = SettingSpec(
        "VAND_WILL_CALL_MAX_WAIT", default: "30", accepts: .number(5...120), group: .riders,
        help: "A will-call way back is picked up within this many minutes of the rider's \"I'm ready\", or refused then.")
    public static let secureCookies = SettingSpec(
        "VAND_SECURE_COOKIES", default: "false", accepts: .boolean, group: .riders, production: "true",
        help: "Mark the web app's cookies Secure: riders reach vand over HTTPS (directly or through a TLS proxy).")

    // MARK: Accounts

    public static let bcryptCost = SettingSpec(
        "VAND_BCRYPT_COST", default: "12", accepts: .integer(4...31), group: .accounts,
        help: "bcrypt cost for passwords (hashing runs on its own threads).")
    public static let sessionIdleDays = SettingSpec(
        "VAND_SESSION_IDLE_DAYS", default: "30", accepts: .number(0.01...3_650), group: .accounts,
        help: "A sign-in ends after this many days unused.")
    public static let temporaryPasswordDays = SettingSpec(
        "VAND_TEMP_PASSWORD_DAYS", default: "7", accepts: .number(0.01...365), group: .accounts,
        help: "A temporary password must be used within this many days.")
    public static let streamsPerRider = SettingSpec(
        "VAND_STREAMS_PER_RIDER", default: "4", accepts: .integer(1...100), group: .accounts,
        help: "Live notification streams one rider may hold open on one vand; the next one closes the oldest.")
    public static let trustedProxies = SettingSpec(
        "VAND_TRUSTED_PROXIES", default: nil, accepts: .text("comma-separated IP addresses"), group: .accounts,
        production: "127.0.0.1,::1",
        help: "Proxies whose X-Forwarded-For names the client, for sign-in throttling. Unset: the header is ignored and the peer's address counts.")

    // MARK: Events

    public static let reminderLead = SettingSpec(
        "VAND_REMINDER_LEAD", default: "15", accepts: .number(1...1_440), group: .events,
        help: "Minutes before pickup the rider is reminded (before the van's ETA there, once the van is on the road).")
    public static let etaLead = SettingSpec(
        "VAND_ETA_LEAD", default: "30", accepts: .number(1...1_440), group: .events,
        help: "Minutes before her pickup window a rider starts to see her van's ETA (until she is on board).")
    public static let webhookURL = SettingSpec(
        "VAND_WEBHOOK_URL", default: nil, accepts: .text("an http(s) URL"), group: .events,
        help: "The dispatcher's webhook; unset: none is sent.")
    public static let webhookSecret = SettingSpec(
        "VAND_WEBHOOK_SECRET", default: nil, accepts: .text("at least 16 characters"), group: .events, secret: true,
        help: "The shared secret of X-Vand-Signature (required with a URL; never logged).")
    public static let webhookMaxAttempts = SettingSpec(
        "VAND_WEBHOOK_MAX_ATTEMPTS", default: "8", accepts: .integer(1...100), group: .events,
        help: "Attempts before a failing webhook delivery is parked.")

    // MARK: The route planner

    public static let improveSeconds = SettingSpec(
        "VAND_IMPROVE_SECONDS", default: "2", accepts: .number(0...60), group: .planner,
        help:
            "Seconds of route search after bookings on a day (in the background, one day at a time, on one low-priority thread); 0: off. `vanadmin plan optimize` searches longer on demand."
    )
    public static let replanSeconds = SettingSpec(
        "VAND_REPLAN_SECONDS", default: "60", accepts: .number(0...3_600), group: .planner,
        help:
            "How often the background planner re-plans the day in progress from the road (vans on shift start where they are; a late ride may move to a van on shift that keeps its promise). 0: off. Runs only with VAND_IMPROVE_SECONDS above 0."
    )

    public static let replanFrozen = SettingSpec(
        "VAND_REPLAN_FROZEN", default: "20", accepts: .number(0...240), group: .planner,
        help:
            "The frozen horizon, minutes: a rider whose pickup opens within it has been told when her van comes (ETA, reminder), and re-planning from the road makes her van no later to her: no ride, late or at risk, is put or re-sequenced ahead of her where that delays it (a late ride that fits only there stays late, with its alert). 0: off."
    )

    // MARK: The van on the road

    public static let noShowWait = SettingSpec(
        "VAND_NO_SHOW_WAIT", default: "300", accepts: .number(0...3_600), group: .road,
        help:
            "Seconds the van waits at a pickup (from the latest of its arrival, the window's start and the pickup time a late alert told the rider) before the driver may tap no-show."
    )
    public static let positionStale = SettingSpec(
        "VAND_POSITION_STALE", default: "120", accepts: .number(5...86_400), group: .road,
        help:
            "Seconds after which a van's last position counts as unknown (ETAs then run from its last tapped stop); a fix posted with an older time is refused (422)."
    )
    public static let trailDays = SettingSpec(
        "VAND_TRAIL_DAYS", default: "30", accepts: .integer(1...3_650), group: .road,
        help: "Days of van trail kept for reports; older fixes are pruned hourly.")

    // MARK: Files

    public static let sqlDirectory = SettingSpec(
        "VAND_SQL_DIR", default: nil, defaultWords: "found automatically", accepts: .text("a folder"), group: .files,
        help: "The migrations (sql/ beside the binary's share/vand, or the checkout's).")
    public static let webDirectory = SettingSpec(
        "VAND_WEB_DIR", default: nil, defaultWords: "found automatically", accepts: .text("a folder"), group: .files,
        help: "The web app's templates/ and static/ (web/ beside the sql/ folder).")
    public static let openAPIPath = SettingSpec(
        "VAND_OPENAPI_PATH", default: nil, defaultWords: "found automatically", accepts: .text("a file"), group: .files,
        help: "The OpenAPI document served at /openapi.yaml (openapi.yaml beside the sql/ folder).")
}
