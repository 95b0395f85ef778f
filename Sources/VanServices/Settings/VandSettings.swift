import Foundation

/// Every setting the services run by, read from the environment in this one place. `vand`,
/// `vanadmin` and `vand-bench` each read it once and build their services from it
/// (``VandServices``), so a phone booking, a console decision and an API request follow the
/// same rules. `vand`'s own HTTP settings (port, timeouts, cookies) sit beside it in `vand`.
public struct VandSettings: Sendable {
    /// How to reach PostgreSQL (`DATABASE_URL`, the `PG*` variables or `VAND_DATA_DIR`).
    public var database: DatabaseSettings
    /// The zone every service day, time and word is in (`VAND_TIMEZONE`).
    public var timeZone: TimeZone
    /// The office's phone number, shown to riders who must call (`VAND_HOTLINE`).
    public var hotline: String?
    /// Password, session and temporary-password rules (`VAND_BCRYPT_COST`, …).
    public var accounts = AccountSettings()
    /// Booking rules: horizon, service area, auto-approve, forms link.
    public var booking = BookingSettings()
    /// The trigger loop: reminder lead time and the dispatcher's webhook.
    public var events = EventSettings()
    /// Background route improvement after bookings (`VAND_IMPROVE_SECONDS`, …).
    public var improvement = ImprovementSettings()
    /// The van on the road: the no-show wait, when a position goes stale, the undo window.
    public var road = RoadSettings()

    /// The defaults, on `database`, in the default zone.
    public init(database: DatabaseSettings, timeZone: TimeZone = TimeZone(identifier: "America/New_York")!) {
        self.database = database
        self.timeZone = timeZone
    }

    /// The settings in `environment`; throws the first that is not valid, naming it.
    public static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> VandSettings {
        var settings = VandSettings(
            database: try DatabaseSettings.fromEnvironment(environment), timeZone: try SettingSpec.serviceTimeZone(environment))
        settings.hotline = try hotline(environment)
        settings.accounts = try AccountSettings.fromEnvironment(environment)
        settings.booking = try BookingSettings.fromEnvironment(environment)
        settings.events = try EventSettings.fromEnvironment(environment)
        settings.improvement = try ImprovementSettings.fromEnvironment(environment)
        settings.road = try RoadSettings.fromEnvironment(environment)
        return settings
    }

    /// The settings of this process's environment.
    public static func current() throws(SettingError) -> VandSettings {
        try fromEnvironment(ProcessInfo.processInfo.environment)
    }

    /// `VAND_HOTLINE`, trimmed: 3–40 characters, no control characters.
    static func hotline(_ environment: [String: String]) throws(SettingError) -> String? {
        guard let text = SettingSpec.hotline.text(environment) else { return nil }
        let hotline = text.trimmingCharacters(in: .whitespaces)
        guard (3...40).contains(hotline.count), hotline.unicodeScalars.allSatisfy({ $0.properties.generalCategory != .control }) else {
            throw SettingSpec.hotline.error(text, expected: "a phone number as riders should see it, e.g. 607-555-0100")
        }
        return hotline
    }
}
