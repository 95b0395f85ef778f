import Foundation
import VanServices

/// Prints rows as an aligned text table for people.
func printTable(_ header: [String], _ rows: [[String]]) {
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

/// Prints a value as pretty JSON with sorted keys, for scripts.
func printJSON<Value: Encodable>(_ value: Value) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.dateEncodingStrategy = .iso8601
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}

/// Who is acting: `--as NAME`, else the login user.
func actorName(_ explicit: String?) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    return ProcessInfo.processInfo.environment["SUDO_USER"] ?? ProcessInfo.processInfo.environment["USER"] ?? NSUserName()
}

/// The service time zone, as `vand` reads it.
func serviceTimeZone() throws -> TimeZone {
    do throws(SettingError) { return try SettingSpec.serviceTimeZone(ProcessInfo.processInfo.environment) } catch { throw CLIError(error.description) }
}
