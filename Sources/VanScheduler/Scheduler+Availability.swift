import Foundation
import VanDomain

extension Scheduler {
    /// The pickup times `t` with `start <= t < end` at which a typical ride could be picked up on
    /// some van, merged across vans, in order. Each interval includes both its ends (an interval
    /// may be a single instant when a ride fits exactly), except that `end` itself is never included,
    /// so consecutive days do not share their midnight.
    ///
    /// A typical ride lasts `typicalTrip` (at least one second) and its ends are unknown, so the
    /// deadhead to and from it is the estimator's `unknownDeadhead`. The same rules as `check`
    /// apply: active vans only (with a wheelchair position if `wheelchair`), the whole trip in
    /// one stretch of service, no closure day, no overlap, deadhead to and from neighbours.
    public func availability(
        from start: Date, to end: Date, wheelchair: Bool, vans: [Van], rides: [BookedRide],
        typicalTrip: TimeInterval = 900
    ) -> [DateInterval] {
        guard start < end else { return [] }
        let trip = max(1, typicalTrip)
        let deadhead = estimator.deadhead(from: nil, to: nil)
        let eligible = vans.filter { $0.active && (!wheelchair || $0.canCarryWheelchair) }
        guard !eligible.isEmpty else { return [] }
        let context = SchedulingContext(
            scheduler: self, range: DateInterval(start: start, end: end.addingTimeInterval(trip)),
            vans: eligible, rides: rides, excludingRideID: nil
        )
        var open = context.stretches.compactMap { stretch in
            Span(lower: max(stretch.start, start), upper: min(stretch.end.addingTimeInterval(-trip), end))
        }
        open = Span.subtracting(
            context.closures.map { OpenSpan(lower: $0.interval.start.addingTimeInterval(-trip), upper: $0.interval.end) },
            from: open
        )
        var free: [Span] = []
        for timeline in context.timelines {
            let busy = timeline.rides.map {
                OpenSpan(lower: $0.pickupAt.addingTimeInterval(-trip - deadhead), upper: $0.dropoffAt.addingTimeInterval(deadhead))
            }
            free += Span.subtracting(busy, from: open)
        }
        return Span.union(free).filter { $0.lower < end }.map { DateInterval(start: $0.lower, end: $0.upper) }
    }

    /// `availability(from:to:…)` for the local day `date` in the service time zone
    /// (its midnight up to, not including, the next midnight).
    public func availability(
        on date: LocalDate, wheelchair: Bool, vans: [Van], rides: [BookedRide], typicalTrip: TimeInterval = 900
    ) -> [DateInterval] {
        let day = date.interval(in: hours.timeZone)
        return availability(
            from: day.start, to: day.end, wheelchair: wheelchair, vans: vans, rides: rides, typicalTrip: typicalTrip
        )
    }
}

/// A closed span of instants `[lower, upper]` (internal to availability).
struct Span: Equatable {
    let lower: Date
    let upper: Date

    /// `nil` when `upper < lower`.
    init?(lower: Date, upper: Date) {
        guard lower <= upper else { return nil }
        self.lower = lower
        self.upper = upper
    }

    /// `spans` (sorted, disjoint) minus the union of the open spans `removed` (any order).
    static func subtracting(_ removed: [OpenSpan], from spans: [Span]) -> [Span] {
        let blocked = OpenSpan.merged(removed)
        var result: [Span] = []
        var first = 0
        for span in spans {
            while first < blocked.count, blocked[first].upper <= span.lower { first += 1 }
            var cursor = span.lower
            var index = first
            while index < blocked.count, blocked[index].lower < span.upper {
                if let piece = Span(lower: cursor, upper: blocked[index].lower) { result.append(piece) }
                cursor = max(cursor, blocked[index].upper)
                index += 1
            }
            if let piece = Span(lower: cursor, upper: span.upper) { result.append(piece) }
        }
        return result
    }

    /// The union of closed spans, sorted, with overlapping or touching spans merged.
    static func union(_ spans: [Span]) -> [Span] {
        var merged: [Span] = []
        for span in spans.sorted(by: { $0.lower < $1.lower }) {
            if let last = merged.last, span.lower <= last.upper {
                merged[merged.count - 1] = Span(lower: last.lower, upper: max(last.upper, span.upper)) ?? last
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}

/// An open span of instants `(lower, upper)`; its ends are not included (internal to availability).
struct OpenSpan: Equatable {
    let lower: Date
    let upper: Date

    /// Sorted, with overlapping spans merged; spans that only touch stay apart (the shared
    /// instant belongs to neither), and empty ones are dropped.
    static func merged(_ spans: [OpenSpan]) -> [OpenSpan] {
        var merged: [OpenSpan] = []
        for span in spans.sorted(by: { $0.lower < $1.lower }) where span.lower < span.upper {
            if let last = merged.last, span.lower < last.upper {
                merged[merged.count - 1] = OpenSpan(lower: last.lower, upper: max(last.upper, span.upper))
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}
