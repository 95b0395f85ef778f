import Foundation
import VanDomain
import VanScheduler

/// This week's service from today: each day's hours or closure, whether the van runs now,
/// and the next opening — what `GET /v1/service` and the web app's service page both show.
public struct ServiceWeek: Sendable, Equatable {
    /// One local day.
    public struct Day: Sendable, Equatable {
        /// The local date.
        public let date: LocalDate
        /// The day's first instant in the service zone.
        public let start: Date
        /// Why the day is closed (`closed` when no reason was given); nil on a service day.
        public let closedReason: String?
        /// When the van runs that day (empty when closed or outside the weekly hours).
        public let open: [DateInterval]
    }

    /// Seven days from today.
    public let days: [Day]
    /// Whether the van runs now.
    public let openNow: Bool
    /// The next opening when it does not run now: this week's, else the first after it that is
    /// not on a closed day; nil when it runs now or has no hours at all.
    public let nextOpening: Date?
}

extension ServiceCalendarStore {
    /// The service week from `now`'s local day: the weekly hours less the closures.
    public func week(from now: Date) async throws -> ServiceWeek {
        let zone = timeZone
        let scheduler = try await scheduler(around: now)
        var closed: [LocalDate: String] = [:]
        for closure in try await closures(from: LocalDate(containing: now, in: zone)) where closed[closure.day] == nil {
            closed[closure.day] = closure.reason ?? "closed"
        }
        var days: [ServiceWeek.Day] = []
        var day = LocalDate(containing: now, in: zone)
        for _ in 0..<7 {
            let interval = day.interval(in: zone)
            let open = closed[day] == nil ? scheduler.hours.openIntervals(from: interval.start, to: interval.end) : []
            days.append(.init(date: day, start: interval.start, closedReason: closed[day], open: open))
            day = LocalDate(containing: interval.end.addingTimeInterval(1), in: zone)
        }
        let openNow = closed[LocalDate(containing: now, in: zone)] == nil && scheduler.hours.isOpen(at: now)
        var next: Date? = openNow ? nil : days.flatMap(\.open).map(\.start).first { $0 > now }
        // Closed all week: the first opening after it that is not on a closure day.
        var probe = day.interval(in: zone).start
        for _ in 0..<366 where !openNow && next == nil {
            guard let candidate = scheduler.hours.nextOpening(after: probe) else { break }
            let candidateDay = LocalDate(containing: candidate, in: zone)
            if closed[candidateDay] == nil { next = candidate } else { probe = candidateDay.interval(in: zone).end }
        }
        return ServiceWeek(days: days, openNow: openNow, nextOpening: next)
    }
}
