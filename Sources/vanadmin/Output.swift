import Foundation
import VanDomain
import VanServices

/// Prints rows as an aligned text table for people; every cell is escaped
/// (``Swift/String/escapingControlCharacters``), so no cell can add a line or steer the terminal.
func printTable(_ header: [String], _ rows: [[String]]) {
    let rows = rows.map { row in row.map(\.escapingControlCharacters) }
    var widths = header.map(\.count)
    for row in rows {
        for (index, cell) in row.enumerated() where index < widths.count { widths[index] = max(widths[index], cell.count) }
    }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { index, cell in
            index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        }.joined(separator: "  ")
    }
    print(line(header))
    print(line(widths.map { String(repeating: "-", count: $0) }))
    for row in rows { print(line(row)) }
}

/// Prints a value as pretty JSON with sorted keys, for scripts, in the rider API's style:
/// snake_case keys and times with the service zone's offset (`2026-11-23T15:00:00-05:00`).
func printJSON<Value: Encodable>(_ value: Value) throws {
    let clock = ServiceTime(timeZone: try serviceTimeZone())
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(clock.format(date))
    }
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// Who is acting when `--as` is not given: the person behind sudo, else the login user.
func loginActorName() -> String {
    ProcessInfo.processInfo.environment["SUDO_USER"] ?? ProcessInfo.processInfo.environment["USER"] ?? NSUserName()
}

/// The service time zone, as `vand` reads it.
func serviceTimeZone() throws -> TimeZone { try adminSettings().timeZone }
