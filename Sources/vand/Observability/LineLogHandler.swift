import Foundation
import Logging
import VanDomain
import VanServices

/// One line per record. Under journald (`JOURNAL_STREAM` set) the line starts with the
/// syslog priority (`<6>`) and has no timestamp (the journal adds its own); otherwise it
/// starts with an ISO 8601 time. Metadata follows as `key=value`, sorted.
///
/// A record is one line, always: the label, the message and every key and value are
/// escaped (``escaped(_:)``), so a multi-line libpq error cannot split into lines that
/// lose their priority, nor forge a line of its own.
struct LineLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    let label: String
    let journald: Bool
    let write: @Sendable (String) -> Void

    init(
        label: String, journald: Bool,
        write: @escaping @Sendable (String) -> Void = { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
    ) {
        self.label = label
        self.journald = journald
        self.write = write
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let level = event.level, message = event.message
        var merged = metadata
        if let explicit = event.metadata { merged.merge(explicit) { $1 } }
        let fields = merged.sorted { $0.key < $1.key }.map { Self.escaped($0.key) + "=" + Self.escaped("\($0.value)") }.joined(separator: " ")
        let text = Self.escaped(label) + ": " + Self.escaped("\(message)") + (fields.isEmpty ? "" : " " + fields)
        if journald {
            write("<\(Self.priority(level))>\(level) \(text)")
        } else {
            write("\(SystemTimeSource().now.formatted(.iso8601)) \(level) \(text)")
        }
    }

    /// The text as one line (``Swift/String/escapingControlCharacters``, VanDomain).
    static func escaped(_ text: String) -> String { text.escapingControlCharacters }

    /// syslog priorities: 7 debug … 2 critical.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
