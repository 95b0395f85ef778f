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
    /// When failed logins lock a net ID.
    public var lockout = LockoutPolicy()

    /// The defaults.
    public init() {}

    /// Lines for a `--help` text, one per variable.
    public static let helpText = """
          VAND_BCRYPT_COST    bcrypt cost for passwords, 4 to 31 (default 12).
          VAND_SESSION_IDLE_DAYS
                              Days a login lasts without use (default 30).
          VAND_TEMP_PASSWORD_DAYS
                              Days a temporary password stays valid (default 7).
        """

    /// Reads the settings; a bad value is an error naming the variable.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(SettingError) -> AccountSettings {
        var settings = AccountSettings()
        if let text = environment["VAND_BCRYPT_COST"], !text.isEmpty {
            guard let cost = Int(text), (4...31).contains(cost) else {
                throw SettingError(variable: "VAND_BCRYPT_COST", value: text, expected: "a whole number from 4 to 31 (12 is a good default)")
            }
            settings.bcryptCost = cost
        }
        if let text = environment["VAND_SESSION_IDLE_DAYS"], !text.isEmpty {
            guard let days = Double(text), days > 0, days <= 3650 else {
                throw SettingError(variable: "VAND_SESSION_IDLE_DAYS", value: text, expected: "a number of days above 0, at most 3650")
            }
            settings.sessionIdleTimeout = days * 86_400
        }
        if let text = environment["VAND_TEMP_PASSWORD_DAYS"], !text.isEmpty {
            guard let days = Double(text), days > 0, days <= 365 else {
                throw SettingError(variable: "VAND_TEMP_PASSWORD_DAYS", value: text, expected: "a number of days above 0, at most 365")
            }
            settings.temporaryPasswordLifetime = days * 86_400
        }
        return settings
    }
}

/// Failed logins for one net ID within ``window`` reaching ``maxFailures`` lock it for ``lockDuration``.
public struct LockoutPolicy: Sendable, Equatable {
    /// Failures that trigger a lock.
    public var maxFailures: Int = 5
    /// How far back failures count.
    public var window: TimeInterval = 15 * 60
    /// How long a lock lasts.
    public var lockDuration: TimeInterval = 15 * 60

    /// The defaults: 5 failures in 15 minutes lock for 15 minutes.
    public init() {}

    /// When a net ID with `failures` recent failures (including the one just made) is locked until, if at all.
    public func lockedUntil(failures: Int, now: Date) -> Date? {
        failures >= maxFailures ? now.addingTimeInterval(lockDuration) : nil
    }
}
