import Foundation

/// Settings of the trigger loop: the reminder lead time and the dispatcher's webhook.
public struct EventSettings: Sendable {
    /// How long before pickup the rider is reminded (default 15 minutes).
    public var reminderLead: TimeInterval = 15 * 60
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

    /// One line per setting, for `vand --help`.
    public static let helpText = """
          VAND_REMINDER_LEAD  Minutes before pickup the rider is reminded (default 15).
          VAND_WEBHOOK_URL    The dispatcher's webhook (http/https); unset: no webhook is sent.
          VAND_WEBHOOK_SECRET Shared secret for X-Vand-Signature (required with a URL; never logged).
          VAND_WEBHOOK_MAX_ATTEMPTS  Attempts before a failing delivery is parked (default 8).
        """

    /// Reads the settings; the first bad value is an error naming it.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws(SettingError) -> EventSettings {
        var settings = EventSettings()
        if let text = environment["VAND_REMINDER_LEAD"], !text.isEmpty {
            guard let minutes = Double(text), (1...1_440).contains(minutes) else {
                throw SettingError(variable: "VAND_REMINDER_LEAD", value: text, expected: "minutes from 1 to 1440")
            }
            settings.reminderLead = minutes * 60
        }
        if let url = environment["VAND_WEBHOOK_URL"], !url.isEmpty {
            guard url.hasPrefix("https://") || url.hasPrefix("http://"), URL(string: url)?.host != nil else {
                throw SettingError(variable: "VAND_WEBHOOK_URL", value: url, expected: "an http(s) URL")
            }
            guard let secret = environment["VAND_WEBHOOK_SECRET"], secret.count >= 16 else {
                throw SettingError(variable: "VAND_WEBHOOK_SECRET", value: nil, expected: "a shared secret of at least 16 characters when VAND_WEBHOOK_URL is set")
            }
            settings.webhookURL = url
            settings.webhookSecret = secret
        }
        if let text = environment["VAND_WEBHOOK_MAX_ATTEMPTS"], !text.isEmpty {
            guard let attempts = Int(text), (1...100).contains(attempts) else {
                throw SettingError(variable: "VAND_WEBHOOK_MAX_ATTEMPTS", value: text, expected: "a whole number from 1 to 100")
            }
            settings.webhookMaxAttempts = attempts
        }
        return settings
    }
}
