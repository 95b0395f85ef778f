import Foundation

/// The service zone used throughout the tests.
public let newYork = TimeZone(identifier: "America/New_York")!

/// An instant from an ISO 8601 UTC string such as `"2026-03-07T23:00:00Z"`.
public func utc(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: text) else { fatalError("bad test timestamp \(text)") }
    return date
}

/// An unambiguous local wall-clock instant in `zone`.
public func local(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, in zone: TimeZone = newYork) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
    guard let date = calendar.date(from: components) else { fatalError("bad local time") }
    return date
}

extension TimeInterval {
    /// `value` hours in seconds, for readable duration checks.
    public static func hours(_ value: Double) -> TimeInterval { value * 3_600 }
}

public let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
}()

public func json<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try encoder.encode(value), as: UTF8.self)
}

public func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    try JSONDecoder().decode(type, from: Data(text.utf8))
}
