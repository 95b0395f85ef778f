import Foundation
import VanDomain

/// The disabilities office's list as a CSV file: a header row naming the columns
/// (`net_id` required; `name`, `email`, `until`, `note` optional, any order, any case),
/// then one person per line.
///
/// Parsing checks every line and reports every problem at once, so the office
/// can fix the file in one go; nothing is imported from a file with any problem.
public struct WhitelistFile: Sendable, Equatable {
    /// A column the file may have.
    public enum Column: String, Sendable, CaseIterable {
        case netID = "net_id", name, email, until, note
    }

    /// One valid data line.
    public struct Row: Sendable, Equatable {
        /// Line the record starts on.
        public let line: Int
        /// The change this line asks for (only the file's columns are set).
        public let patch: WhitelistPatch
    }

    /// The columns the header names.
    public let columns: [Column]
    /// The data lines, in file order.
    public let rows: [Row]

    /// Longest name accepted.
    public static let maxNameLength = 200
    /// Longest note accepted.
    public static let maxNoteLength = 500

    /// Parses and checks the whole file.
    /// - Throws: ``WhitelistFileError`` listing every bad line and why.
    public init(parsing text: String) throws(WhitelistFileError) {
        // Spreadsheets often save "CSV UTF-8" with a byte-order mark; it is not part of the first column's name.
        let csv: CSV
        do { csv = try CSV(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text) } catch {
            throw WhitelistFileError(problems: [.init(line: error.line, reason: error.reason)])
        }
        let headerLine = 1
        var problems: [WhitelistFileError.Problem] = []
        var columns: [Column] = []
        for title in csv.header {
            let key = title.replacingOccurrences(of: " ", with: "_")
            let column = Column(rawValue: key) ?? (key == "valid_until" ? .until : key == "netid" ? .netID : nil)
            guard let column else {
                problems.append(
                    .init(line: headerLine, reason: "unknown column \"\(title)\"; use \(Column.allCases.map(\.rawValue).joined(separator: ", "))"))
                continue
            }
            if columns.contains(column) { problems.append(.init(line: headerLine, reason: "column \(column.rawValue) appears twice")) }
            columns.append(column)
        }
        if !problems.isEmpty { throw WhitelistFileError(problems: problems) }
        guard columns.contains(.netID) else {
            throw WhitelistFileError(problems: [
                .init(line: headerLine, reason: "the header has no net_id column (it names \(csv.header.joined(separator: ", ")))")
            ])
        }

        var rows: [Row] = []
        var seen: [NetID: Int] = [:]
        for record in csv.records {
            guard record.fields.count == columns.count else {
                problems.append(.init(line: record.line, reason: "has \(record.fields.count) fields but the header has \(columns.count)"))
                continue
            }
            var reasons: [String] = []
            var patch: WhitelistPatch?
            var name: String?, email: EmailAddress?, note: String?, until: LocalDate?
            var netID: NetID?
            for (column, raw) in zip(columns, record.fields) {
                let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
                switch column {
                case .netID:
                    do { netID = try NetID(value) } catch { reasons.append(error.description) }
                case .name:
                    if value.count > Self.maxNameLength { reasons.append("name: must be at most \(Self.maxNameLength) characters") }
                    name = value.isEmpty ? nil : value
                case .email:
                    if !value.isEmpty {
                        do { email = try EmailAddress(value) } catch { reasons.append(error.description) }
                    }
                case .until:
                    if !value.isEmpty {
                        do { until = try LocalDate(value, field: "until") } catch { reasons.append(error.description) }
                    }
                case .note:
                    if value.count > Self.maxNoteLength { reasons.append("note: must be at most \(Self.maxNoteLength) characters") }
                    note = value.isEmpty ? nil : value
                }
            }
            if let netID {
                if let first = seen[netID] {
                    reasons.append("net_id \(netID) already appears on line \(first)")
                } else {
                    seen[netID] = record.line
                }
                if reasons.isEmpty {
                    patch = WhitelistPatch(
                        netID: netID,
                        name: columns.contains(.name) ? .some(name) : nil,
                        email: columns.contains(.email) ? .some(email) : nil,
                        note: columns.contains(.note) ? .some(note) : nil,
                        validUntil: columns.contains(.until) ? .some(until) : nil
                    )
                }
            }
            if let patch {
                rows.append(Row(line: record.line, patch: patch))
            } else {
                problems.append(.init(line: record.line, reason: reasons.joined(separator: "; ")))
            }
        }
        if !problems.isEmpty { throw WhitelistFileError(problems: problems) }
        self.columns = columns
        self.rows = rows
    }
}

/// A whitelist file with problems; nothing from it may be imported.
public struct WhitelistFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One bad line.
    public struct Problem: Sendable, Equatable {
        /// The 1-based line number, as an editor shows it.
        public let line: Int
        /// What is wrong and how to fix it.
        public let reason: String
    }

    /// Every bad line and why, in file order.
    public let problems: [Problem]

    /// One line per problem: `line 4: email: ...`.
    public var description: String {
        problems.map { "line \($0.line): \($0.reason)" }.joined(separator: "\n")
    }
}
