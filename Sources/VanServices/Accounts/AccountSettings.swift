import Foundation

/// Account rules an operator may tune, read from the environment by both `vand`
/// and `vanadmin` (which creates temporary passwords and hashes them).
public struct AccountSettings: Sendable, Equatable {
    /// bcrypt cost, log2 of the rounds (`VAND_BCRYPT_COST`, default 12; tests use 4).
    public var bcryptCost: Int = 12
    /// A session ends after this long without use (`VAND_SESSION_IDLE_DAYS`, default 30).
    public var sessionIdleTimeout: TimeInterval = 30 * 86_400
    /// A temporary password must be used within this long (`VAND_TEMP_PASSWORD_DAYS`, default 7).
    public var temporaryPasswordLifetime: TimeInterval = 7 * 86_400
    /// Live notification streams one rider may hold open per process; the next closes the oldest
    /// (`VAND_STREAMS_PER_RIDER`, default 4).
    public var streamsPerRider = 4
    /// How failed sign-ins are throttled.
    public var throttle = LoginThrottlePolicy()

    /// The defaults.
    public init() {}

    /// Reads the settings; a bad value is an error naming the variable.
    public static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> AccountSettings {
        var settings = AccountSettings()
        settings.bcryptCost = try SettingSpec.bcryptCost.integer(environment)
        settings.sessionIdleTimeout = try SettingSpec.sessionIdleDays.number(environment) * 86_400
        settings.temporaryPasswordLifetime = try SettingSpec.temporaryPasswordDays.number(environment) * 86_400
        settings.streamsPerRider = try SettingSpec.streamsPerRider.integer(environment)
        return settings
    }
}

/// How failed sign-ins are throttled (``LoginThrottleStore``): per net ID and client address,
/// and per client address over every net ID. Each key gets some failures free; every
/// further one blocks it for a delay that doubles, up to a cap; an hour without failures
/// forgets it.
public struct LoginThrottlePolicy: Sendable, Equatable {
    /// The rule for one kind of key.
    public struct Limit: Sendable, Equatable {
        /// The failure that first blocks the key (the ones before it cost nothing).
        public var blockingFailure: Int
        /// The first block.
        public var firstDelay: TimeInterval
        /// The longest block.
        public var longestDelay: TimeInterval
        /// A key with no failure for this long starts again from zero.
        public var forgetAfter: TimeInterval

        /// A limit.
        public init(blockingFailure: Int, firstDelay: TimeInterval, longestDelay: TimeInterval, forgetAfter: TimeInterval) {
            self.blockingFailure = blockingFailure
            self.firstDelay = firstDelay
            self.longestDelay = longestDelay
            self.forgetAfter = forgetAfter
        }

        /// Until when a key with `failures` failures (this one included) is blocked, if at all:
        /// failure ``blockingFailure`` blocks for ``firstDelay``, each further one twice as long, up to ``longestDelay``.
        public func blockedUntil(failures: Int, now: Date) -> Date? {
            guard failures >= blockingFailure else { return nil }
            let doublings = min(failures - blockingFailure, 30)
            return now.addingTimeInterval(min(longestDelay, firstDelay * Double(1 << doublings)))
        }
    }

    /// One net ID from one address: a rider's typos. The 5th failure blocks for a minute,
    /// then 2, 4, 8, 15, 15 … minutes.
    public var perAccountAndAddress = Limit(blockingFailure: 5, firstDelay: 60, longestDelay: 15 * 60, forgetAfter: 3_600)
    /// One address over every net ID: a guesser spraying accounts (generous, for a campus NAT).
    /// The 30th failure blocks for a minute, then 2, 4 … minutes, up to an hour.
    public var perAddress = Limit(blockingFailure: 30, firstDelay: 60, longestDelay: 3_600, forgetAfter: 3_600)

    /// The defaults.
    public init() {}
}
