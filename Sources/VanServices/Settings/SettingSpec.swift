import Foundation

/// One environment variable `vand` (or `vanadmin`) reads: its name, default, what it
/// accepts and its help, in one row of ``SettingSpec/all``. `vand --help`, the README's
/// configuration table and `deploy/vand.env.example` are made from these rows (a test
/// fails when a file drifts from them), and the readers below check a value against the
/// same row, so the documented range is the enforced one.
public struct SettingSpec: Sendable, Hashable {
    /// What a value must be.
    public enum Accepts: Sendable, Hashable {
        /// A whole number in the range.
        case integer(ClosedRange<Int>)
        /// A number (fractions allowed) in the range.
        case number(ClosedRange<Double>)
        /// `true`/`false` (also 1/0, yes/no, on/off).
        case boolean
        /// One of these words (case does not matter).
        case choice([String])
        /// Anything the reader checks itself, described in words ("an http(s) URL").
        case text(String)
    }

    /// Where a setting is listed (the env example's and the help's sections).
    public enum Group: String, Sendable, Hashable, CaseIterable {
        case database = "The database"
        case server = "Where vand listens, and its logs"
        case riders = "What riders see and may do"
        case accounts = "Sign-in and accounts"
        case events = "Reminders and the dispatcher's webhook"
        case planner = "The route planner"
        case road = "The van on the road"
        case files = "Files (found automatically; set them only for an unusual install)"
    }

    /// The variable, e.g. `VAND_PORT`.
    public let name: String
    /// The default as a value of the variable (nil: unset means "none" or is worked out).
    public let defaultValue: String?
    /// The default in words where it is not a plain value ("embedded cluster", "none").
    public let defaultWords: String?
    /// What a value must be.
    public let accepts: Accepts
    /// One or two sentences for an operator.
    public let help: String
    /// The section it is listed in.
    public let group: Group
    /// A value for `deploy/vand.env.example`, set there uncommented (production wants it).
    public let productionValue: String?
    /// Never echo the value (it may hold a password or a secret).
    public let secret: Bool

    /// A row of the table.
    public init(
        _ name: String, default defaultValue: String?, defaultWords: String? = nil, accepts: Accepts,
        group: Group, production productionValue: String? = nil, secret: Bool = false, help: String
    ) {
        self.name = name
        self.defaultValue = defaultValue
        self.defaultWords = defaultWords
        self.accepts = accepts
        self.help = help
        self.group = group
        self.productionValue = productionValue
        self.secret = secret
    }

    // MARK: Reading

    /// The variable's text, nil when unset or empty.
    public func text(_ environment: [String: String]) -> String? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        return text
    }

    /// An error naming this variable (the value left out for a secret).
    public func error(_ value: String?, expected: String? = nil) -> SettingError {
        SettingError(variable: name, value: secret ? nil : value, expected: expected ?? acceptsWords)
    }

    /// An `.integer` setting: the value, else the default.
    public func integer(_ environment: [String: String]) throws(SettingError) -> Int {
        guard case .integer(let range) = accepts else { preconditionFailure("\(name) is not an integer setting") }
        guard let text = text(environment) else { return Int(defaultValue ?? "") ?? range.lowerBound }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else { throw error(text) }
        return value
    }

    /// A `.number` setting: the value, else the default.
    public func number(_ environment: [String: String]) throws(SettingError) -> Double {
        guard case .number(let range) = accepts else { preconditionFailure("\(name) is not a number setting") }
        guard let text = text(environment) else { return Double(defaultValue ?? "") ?? range.lowerBound }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, range.contains(value) else { throw error(text) }
        return value
    }

    /// A `.boolean` setting: the value, else the default.
    public func boolean(_ environment: [String: String]) throws(SettingError) -> Bool {
        guard let text = text(environment) else { return defaultValue == "true" }
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw error(text)
        }
    }

    /// A `.choice` setting: the word in lower case, else the default.
    public func choice(_ environment: [String: String]) throws(SettingError) -> String {
        guard case .choice(let words) = accepts else { preconditionFailure("\(name) is not a choice setting") }
        guard let text = text(environment) else { return defaultValue ?? words[0] }
        guard words.contains(text.lowercased()) else { throw error(text) }
        return text.lowercased()
    }

    // MARK: Words

    /// What a value must be, in words.
    public var acceptsWords: String {
        switch accepts {
        case .integer(let range): return "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .number(let range): return "a number from \(Self.plain(range.lowerBound)) to \(Self.plain(range.upperBound))"
        case .boolean: return "true or false"
        case .choice(let words): return words.dropLast().joined(separator: ", ") + " or " + words.last!
        case .text(let words): return words
        }
    }

    /// The range or form in a table cell: `1–200`, `true/false`, `a\|b\|c`.
    public var acceptsShort: String {
        switch accepts {
        case .integer(let range): return "\(range.lowerBound)–\(range.upperBound)"
        case .number(let range): return "\(Self.plain(range.lowerBound))–\(Self.plain(range.upperBound))"
        case .boolean: return "true/false"
        case .choice(let words): return words.joined(separator: "/")
        case .text(let words): return words
        }
    }

    /// The default in a table cell.
    public var defaultShort: String { defaultWords ?? defaultValue ?? "none" }

    private static func plain(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

/// A setting from the environment that cannot be used.
public struct SettingError: Error, CustomStringConvertible, Sendable {
    /// The environment variable.
    public let variable: String
    /// The value given (nil when it must not be shown, e.g. it may hold a password).
    public let value: String?
    /// What would have been accepted.
    public let expected: String

    /// Creates an error.
    public init(variable: String, value: String?, expected: String) {
        self.variable = variable
        self.value = value
        self.expected = expected
    }

    public var description: String {
        if let value { return "\(variable)=\(value) is not valid: expected \(expected)" }
        return "\(variable) is not valid: expected \(expected)"
    }
}
