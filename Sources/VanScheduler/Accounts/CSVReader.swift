/// A small RFC 4180 reader: comma-separated, fields optionally in double quotes
/// (`""` is a quote inside one, and a quoted field may span lines), CRLF or LF.
/// Each record carries the line it starts on, for error messages.
public enum CSVReader {
    /// One record and the 1-based line it starts on.
    public struct Record: Sendable, Equatable {
        /// Line number of the record's first character.
        public let line: Int
        /// The fields, unquoted.
        public let fields: [String]
    }

    /// A file that cannot be read as CSV.
    public struct Failure: Error, Sendable, Equatable {
        /// Where the problem starts.
        public let line: Int
        /// What is wrong.
        public let reason: String
    }

    /// Splits `text` into records; blank lines are skipped and a leading byte-order mark is ignored.
    public static func records(_ text: String) throws(Failure) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var recordLine = 1
        var inQuotes = false
        var quoteLine = 0
        var afterQuote = false  // just closed a quoted field: only , or a line end may follow
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var index = 0

        func endRecord() {
            fields.append(field)
            field = ""
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
            fields = []
        }

        while index < scalars.count {
            let c = scalars[index]
            index += 1
            if inQuotes {
                if c == "\"" {
                    if index < scalars.count, scalars[index] == "\"" {
                        field.unicodeScalars.append("\"")
                        index += 1
                    } else {
                        inQuotes = false
                        afterQuote = true
                    }
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case ",":
                fields.append(field)
                field = ""
                afterQuote = false
            case "\r" where index < scalars.count && scalars[index] == "\n":
                continue
            case "\n", "\r":
                endRecord()
                afterQuote = false
                line += 1
                recordLine = line
            case "\"" where field.isEmpty && !afterQuote:
                inQuotes = true
                quoteLine = line
            default:
                if afterQuote {
                    throw Failure(line: line, reason: "text after a closing quote; put the whole field in quotes and double any quote inside it")
                }
                if c == "\"" {
                    throw Failure(line: line, reason: "a quote inside an unquoted field; put the field in quotes and double the quote (\"\")")
                }
                field.unicodeScalars.append(c)
            }
        }
        if inQuotes { throw Failure(line: quoteLine, reason: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty || afterQuote { endRecord() }
        return records
    }
}
