import Foundation
import VanDomain

/// One driver on one van, from start to end (`shifts`, sql/0028).
public struct Shift: Sendable, Hashable, Codable {
    /// The shift's id.
    public let id: Int64
    /// The driver.
    public let driverNetID: NetID
    /// The van.
    public let vanID: Int64
    /// The van's name.
    public let vanName: String
    /// When it started.
    public let startedAt: Date
    /// When it ended (nil while open).
    public let endedAt: Date?
    /// Who ended it: the driver's net ID, or `vanadmin`'s actor.
    public let endedBy: String?

    /// Creates a value.
    public init(id: Int64, driverNetID: NetID, vanID: Int64, vanName: String, startedAt: Date, endedAt: Date? = nil, endedBy: String? = nil) {
        self.id = id
        self.driverNetID = driverNetID
        self.vanID = vanID
        self.vanName = vanName
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.endedBy = endedBy
    }

    /// Whether the shift is still open.
    public var isOpen: Bool { endedAt == nil }

    /// The pickups on this shift's run at `now`: today's, and for a shift that began the day
    /// before and runs past midnight, that day's too, so the last drop-offs of a late evening
    /// can still be tapped (and counted, and estimated) after midnight. Never more than two days:
    /// a shift left open for days does not bring old stops back. Late in the evening it reaches
    /// ``lookahead`` past now, into the next day: a driver at 11:55 PM sees her 12:05 AM pickup.
    public func runSpan(at now: Date, in timeZone: TimeZone) -> DateInterval {
        Self.runSpan(startedAt: startedAt, at: now, in: timeZone)
    }

    /// ``runSpan(at:in:)`` of a shift that started at `startedAt`.
    public static func runSpan(startedAt: Date, at now: Date, in timeZone: TimeZone) -> DateInterval {
        let today = LocalDate(containing: now, in: timeZone)
        let started = LocalDate(containing: startedAt, in: timeZone)
        let first = LocalDate(dayNumber: max(started.dayNumber, today.dayNumber - 1))
        return DateInterval(start: first.interval(in: timeZone).start, end: max(today.interval(in: timeZone).end, now.addingTimeInterval(lookahead)))
    }

    /// How far past now a run reaches into the next day (3 hours).
    public static let lookahead: TimeInterval = 3 * 3_600
}
