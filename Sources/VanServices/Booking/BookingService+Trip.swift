import Foundation
import VanDomain
import VanPostgres
import VanScheduler

extension BookingService {
    /// Books a ride there and its way back in one transaction, both or neither: the ride there
    /// first, then the way back with the ride there held (so it may share her van, and never
    /// overlaps it). If either leg does not fit, nothing is kept but the refusal, which the
    /// report counts (``Negotiation``). A dispatcher booking for a rider names herself as
    /// `bookedBy`, and may book over a suspension for a reason (`overrideSuspension`), as in
    /// ``bookSeries(_:now:bookedBy:overrideSuspension:)``.
    public func bookTrip(
        _ there: NewRide, _ back: NewRide, now: Date, bookedBy: String? = nil, overrideSuspension: String? = nil
    ) async throws -> TripOutcome {
        let timeZone = calendar.timeZone
        let outcome = try await pool.withTransaction { conn in
            try Self.bookTrip(
                there, back, now: now, timeZone: timeZone, willCallWait: rules.policy.willCallMaxWait, bookedBy: bookedBy,
                overrideSuspension: overrideSuspension, conn)
        }
        announce(outcome)
        return outcome
    }

    /// Like ``bookTrip(_:_:now:bookedBy:overrideSuspension:)``, guarded by an idempotency key as
    /// ``bookSeries(_:now:idempotencyKey:bookedBy:)`` is: a retry gets the first answer back.
    public func bookTrip(
        _ there: NewRide, _ back: NewRide, now: Date, idempotencyKey: IdempotencyKey, bookedBy: String? = nil
    ) async throws -> IdempotentTrip {
        let timeZone = calendar.timeZone
        let booking = try await pool.withTransaction { conn -> IdempotentTrip in
            if let earlier = try IdempotencyStore.claim(idempotencyKey, conn) { return .replay(earlier) }
            let outcome = try Self.bookTrip(
                there, back, now: now, timeZone: timeZone, willCallWait: rules.policy.willCallMaxWait, bookedBy: bookedBy, conn)
            let remembered: BookingOutcome =
                switch outcome {
                case .booked(let ride, _): .booked(ride)
                case .refused(_, let refusal): refusal
                case .backTooSoon: .refused(.infeasible(reason: .occupied, earlier: nil, later: nil), sentence: "")
                }
            try IdempotencyStore.remember(idempotencyKey, RememberedBooking([remembered], seriesID: nil), conn)
            return .fresh(outcome)
        }
        if case .fresh(let outcome) = booking { announce(outcome) }
        return booking
    }

    private func announce(_ outcome: TripOutcome) {
        if case .booked(let there, let back) = outcome {
            routeChanges.changed(around: there.pickupAt)
            routeChanges.changed(around: back.pickupAt)
        }
    }

    static func bookTrip(
        _ there: NewRide, _ back: NewRide, now: Date, timeZone: TimeZone, willCallWait: TimeInterval, bookedBy: String?,
        overrideSuspension: String? = nil,
        _ conn: PGConnection
    ) throws -> TripOutcome {
        try conn.execute(simple: "SAVEPOINT trip")
        let first = try bookAll(
            [there], now: now, timeZone: timeZone, willCallWait: willCallWait, bookedBy: bookedBy, overrideSuspension: overrideSuspension, conn)[0]
        guard case .booked(let thereRide) = first else {
            return try undo(.refused(leg: .there, outcome: first), asked: there, now: now, conn)
        }
        // Her way back may start once the ride there has ended, at its promised latest.
        let earliest = thereRide.promise.riderSpan(maxRideTime: thereRide.maxRideTime).end
        if back.pickupAt < earliest {
            let suggestion = try nearest(back, from: earliest, now: now, timeZone: timeZone, conn)
            return try undo(.backTooSoon(earliest: earliest, suggestion: suggestion), asked: back, now: now, conn)
        }
        let second = try bookAll(
            [back], now: now, timeZone: timeZone, willCallWait: willCallWait, bookedBy: bookedBy, overrideSuspension: overrideSuspension, conn)[0]
        guard case .booked(let backRide) = second else {
            return try undo(.refused(leg: .back, outcome: second), asked: back, now: now, conn)
        }
        try conn.execute(simple: "RELEASE SAVEPOINT trip")
        return .booked(there: thereRide, back: backRide)
    }

    /// Undoes the trip's writes, keeps the refusal of the leg that did not fit (a capacity
    /// refusal the report counts), and answers `outcome`.
    private static func undo(_ outcome: TripOutcome, asked: NewRide, now: Date, _ conn: PGConnection) throws -> TripOutcome {
        try conn.execute(simple: "ROLLBACK TO SAVEPOINT trip")
        if case .refused(_, .refused(let feasibility, _)) = outcome {
            try Negotiation.recordRefusal(asked, reason: feasibility.refusalCode, now: now, conn)
        }
        return outcome
    }

    /// The nearest time from `earliest` at which `back` fits, with the ride there held: a
    /// suggestion on the scheduler's grid, within the negotiation window after `earliest`.
    private static func nearest(_ back: NewRide, from earliest: Date, now: Date, timeZone: TimeZone, _ conn: PGConnection) throws -> Suggestion? {
        let scheduler = try ServiceCalendarStore.scheduler(conn, timeZone: timeZone, around: earliest)
        let step = max(60, scheduler.step)
        let start = Date(timeIntervalSince1970: (earliest.timeIntervalSince1970 / step).rounded(.up) * step)
        let vans = try VanStore.list(conn, includeRetired: false)
        let request = RideRequest(
            pickup: back.pickup.coordinate, dropoff: back.dropoff.coordinate, wheelchair: back.needsWheelchair, pickupAt: start,
            promise: .pickup, companions: back.companions, notBefore: now)
        let (feasibility, _) = try VanDayRoutes.plan(request, scheduler: scheduler, vans: vans, conn)
        let minutes = { (at: Date) in Int((at.timeIntervalSince(back.pickupAt) / 60).rounded()) }
        switch feasibility {
        case .feasible(let assignment):
            return Suggestion(
                pickupAt: assignment.pickupAt, dropoffAt: assignment.dropoffAt, vanID: assignment.vanID,
                withinADAWindow: abs(start.timeIntervalSince(back.pickupAt)) <= scheduler.adaWindow, minutesFromRequested: minutes(start),
                asked: start)
        case .infeasible:
            return feasibility.suggestions.first { $0.asked >= start }
        }
    }
}

/// A trip booked under an idempotency key: booked now, or the first answer's record.
public enum IdempotentTrip: Sendable {
    /// Booked by this request.
    case fresh(TripOutcome)
    /// A retry: what the first request with the key made.
    case replay(RememberedBooking)
}
