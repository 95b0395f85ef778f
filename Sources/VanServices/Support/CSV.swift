import Foundation

/// A small RFC 4180 reader: comma-separated, double-quoted fields may hold
/// commas, quotes (doubled) and newlines. Lines are numbered from 1 as a text
/// editor shows them, so errors can point at them.
public struct CSV: Sendable {
    /// One record and the line it starts on.
    public struct Record: Sendable, Equatable {
        /// The 1-based line number where the record starts.
        public let line: Int
        /// Field values.
        public let fields: [String]
    }

    /// The header row's field names, lowercased and trimmed.
    public let header: [String]
    /// Every record after the header; blank lines are skipped.
    public let records: [Record]

    /// Parses `text`; an unterminated quote is an error naming its line.
    public init(_ text: String) throws(CSVError) {
        var records: [Record] = []
        var field = ""
        var fields: [String] = []
        var inQuotes = false
        var line = 1
        var recordLine = 1
        var iterator = text.makeIterator()
        var pending: Character? = nil
        func finishRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].trimmingWhitespace().isEmpty) {
                records.append(Record(line: recordLine, fields: fields))
            }
            fields = []
            field = ""
        }
        while let c = pending ?? iterator.next() {
            pending = nil
            if inQuotes {
                if c == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { field.append("\"") } else { inQuotes = false; pending = next }
                    } else {
                        inQuotes = false
                    }
                } else {
                    if c == "\n" || c == "\r\n" { line += 1 }
                    field.append(c)
                }
                continue
            }
            switch c {
            case "\"" where field.isEmpty: inQuotes = true
            case ",": fields.append(field); field = ""
            case "\n", "\r\n", "\r":
                finishRecord()
                line += 1
                recordLine = line
            default: field.append(c)
            }
        }
        if inQuotes { throw CSVError(line: recordLine, reason: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty { finishRecord() }
        guard let first = records.first else { throw CSVError(line: 1, reason: "the file is empty; it needs a header row") }
        header = first.fields.map { $0.trimmingWhitespace().lowercased() }
        self.records = Array(records.dropFirst())
    }

    /// The value of column `name` in `record`, trimmed; nil when the column is absent or empty.
    public func value(_ name: String, in record: Record) -> String? {
        guard let index = header.firstIndex(of: name), index < record.fields.count else { return nil }
        let value = record.fields[index].trimmingWhitespace()
        return value.isEmpty ? nil : value
    }
}

extension CSV {
    /// One record as RFC 4180 text with its line end (CRLF): a field holding a comma, a double
    /// quote, a line break or a space at either end is quoted, its quotes doubled — so
    /// ``CSV/init(_:)`` reads back exactly these fields.
    public static func record(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// One field, quoted when it must be (see ``record(_:)``).
    public static func field(_ value: String) -> String {
        let needsQuotes =
            value.contains { $0 == "," || $0 == "\"" || $0.isNewline }
            || value.first?.isWhitespace == true || value.last?.isWhitespace == true
        guard needsQuotes else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// People's text for a spreadsheet: a value that would start a formula (`=`, `+`, `-`, `@`,
    /// a tab or a carriage return first) gets a leading `'`, so a place named `=HYPERLINK(…)`
    /// is shown, never run. For text cells only; numbers are written as they are.
    public static func text(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
        return "'" + value
    }
}

/// A CSV file that cannot be read.
public struct CSVError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The 1-based line.
    public let line: Int
    /// What is wrong.
    public let reason: String

    public var description: String { "line \(line): \(reason)" }
}

extension String {
    func trimmingWhitespace() -> String {
        var slice = self[...]
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
