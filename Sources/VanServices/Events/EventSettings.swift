import Foundation

/// Settings of the trigger loop and of ETAs from the road: the reminder lead time, when riders see
/// their van's ETA, when a position goes stale, and the dispatcher's webhook.
public struct EventSettings: Sendable {
    /// How long before pickup the rider is reminded (default 15 minutes).
    public var reminderLead: TimeInterval = 15 * 60
    /// How long before her pickup window a rider sees her van's ETA (default 30 minutes).
    public var etaLead: TimeInterval = 30 * 60
    /// How old a van's position may be and still count (default 120 s); older, the last tap counts.
    public var positionStale: TimeInterval = 120
    /// How often ETAs of every van on the road are worked out again with no position or tap to
    /// prompt it (default 15 s): a van whose phone went quiet grows late with the clock.
    public var etaSweep: TimeInterval = 15
    /// Where the dispatcher's webhook is POSTed; nil sends none (the deliveries are marked skipped).
    public var webhookURL: String?
    /// The shared secret the webhook is signed with (required with a URL). Never logged.
    public var webhookSecret: String?
    /// Attempts before a failing webhook delivery is parked (default 8).
    public var webhookMaxAttempts = 8
    /// How long one webhook POST may take (10 s).
    public var webhookTimeout: Duration = .seconds(10)
    /// The first retry delay; each further retry doubles it, up to ``backoffCap`` (with jitter).
    public var backoffBase: TimeInterval = 5
    /// The longest retry delay.
    public var backoffCap: TimeInterval = 15 * 60
    /// How long a loop owns a claimed webhook delivery before another loop may take it over.
    public var claimLease: TimeInterval = 60
    /// Deliveries claimed per batch.
    public var batchSize = 32
    /// Webhook POSTs in flight at once within a batch.
    public var webhookConcurrency = 8
    /// The longest the loop sleeps with nothing due (a safety net; NOTIFY wakes it sooner).
    public var idleWake: TimeInterval = 30

    /// The defaults.
    public init() {}

    /// Reads the settings; the first bad value is an error naming it.
    public static func fromEnvironment(_ environment: [String: String]) throws(SettingError) -> EventSettings {
        var settings = EventSettings()
        settings.reminderLead = try SettingSpec.reminderLead.number(environment) * 60
        settings.etaLead = try SettingSpec.etaLead.number(environment) * 60
        settings.positionStale = try SettingSpec.positionStale.number(environment)
        if let url = SettingSpec.webhookURL.text(environment) {
            guard url.hasPrefix("https://") || url.hasPrefix("http://"), URL(string: url)?.host != nil else {
                throw SettingSpec.webhookURL.error(url)
            }
            guard let secret = SettingSpec.webhookSecret.text(environment), secret.count >= 16 else {
                throw SettingSpec.webhookSecret.error(nil, expected: "a shared secret of at least 16 characters when VAND_WEBHOOK_URL is set")
            }
            settings.webhookURL = url
            settings.webhookSecret = secret
        }
        settings.webhookMaxAttempts = try SettingSpec.webhookMaxAttempts.integer(environment)
        return settings
    }
}
