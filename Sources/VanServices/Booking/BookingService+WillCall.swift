import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// Why "I'm ready" was not taken (no booking was tried).
public enum WillCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No such ride of hers.
    case notFound
    /// Her ride was booked without a will-call way back.
    case noWillCall
    /// Called off (with the ride there, or by the office).
    case closed
    /// The ride there is still to come or under way: it may arrive until `until`.
    case rideThereNotOver(until: Date)

    /// What the rider reads, its time by `clock`.
    public func sentence(clock: ServiceTime) -> String {
        switch self {
        case .notFound: "There is no such ride among your rides."
        case .noWillCall: "This ride was booked without a way back to call for. Book a ride home instead."
        case .closed: "This way back was called off. Book a ride home instead."
        case .rideThereNotOver(let until):
            "Your ride there is not over yet (it may arrive until \(clock.text(until, .clockTime))). Say you are ready once you have arrived."
        }
    }

    /// The sentence in UTC.
    public var description: String { sentence(clock: ServiceTime(timeZone: TimeZone(identifier: "UTC")!)) }
}

/// What "I'm ready" came to.
public enum ReadyOutcome: Sendable, Hashable {
    /// The way back is booked now, picked up within the office's wait.
    case booked(Ride)
    /// She had called already: the way back booked then.
    case already(Ride)
    /// No van can pick her up within the wait: nothing is booked, her call stays open, and the
    /// refusal is kept (a denial unless she gets a ride within 10 minutes).
    case refused(BookingOutcome)
}

extension BookingService {
    /// Books the will-call way back of ride `there` now that she is ready: an on-demand ride from
    /// where the ride there left her (or the place she gave) back to its pickup, at the policy's
    /// on-demand lead or, when that is taken, the nearest later time whose promised window still
    /// ends within ``BookingPolicy/willCallMaxWait``. One transaction under the will-call's row
    /// lock: two calls at once book one ride (the second gets it back as ``ReadyOutcome/already(_:)``).
    ///
    /// `netID` is hers (the app); nil when the dispatcher calls for her by phone, named as `actor`
    /// (the booking is audited as hers, and the call as `ride.ready_for_rider`).
    public func ready(_ there: UUID, netID: NetID?, actor: String, now: Date) async throws -> ReadyOutcome {
        let timeZone = calendar.timeZone
        let policy = rules.policy, status: RideStatus = rules.autoApprove ? .approved : .pending
        let outcome = try await pool.withTransaction { conn -> ReadyOutcome in
            guard let thereRide = try conn.query("\(RideRecord.select) WHERE r.id = \(there)").first.map(RideRecord.ride),
                netID == nil || thereRide.netID == netID
            else { throw WillCallError.notFound }
            guard let call = try WillCallStore.lock(there, conn) else { throw WillCallError.noWillCall }
            switch call.state {
            case .ready:
                guard let back = try conn.query("\(RideRecord.select) WHERE r.return_of = \(there)").first.map(RideRecord.ride) else {
                    throw WillCallError.closed
                }
                return .already(back)
            case .closed:
                throw WillCallError.closed
            case .open:
                break
            }
            // Until the driver drops her off, the ride there holds her (and a second ride would overlap it).
            if thereRide.status.holdsVan {
                throw WillCallError.rideThereNotOver(until: thereRide.promise.riderSpan(maxRideTime: thereRide.maxRideTime).end)
            }
            // Picked up from the on-demand lead on, her whole window inside the office's wait: at
            // the lead, or, when that is taken, at the nearest later time whose window still ends
            // within the wait. (One window as wide as the wait let the planner put her before told
            // riders' stops wherever it was cheapest: docs/simulation.md measures both.)
            let soonest = Date(timeIntervalSince1970: now.addingTimeInterval(policy.onDemandLead).timeIntervalSince1970.rounded(.up))
            let width = try ServiceCalendarStore.scheduler(conn, timeZone: timeZone, around: soonest).windowWidth
            let latestStart = now.addingTimeInterval(policy.willCallMaxWait - width)
            var back = NewRide(
                id: .timeOrdered(at: now), netID: call.netID, kind: .onDemand, pickup: call.pickup, dropoff: thereRide.pickup,
                pickupAt: soonest, needsWheelchair: thereRide.needsWheelchair, companions: thereRide.companions, note: thereRide.note,
                returnOf: there, status: status)
            let bookedBy = netID == nil ? actor : nil
            var answer = try Self.bookAll([back], now: now, timeZone: timeZone, willCallWait: policy.willCallMaxWait, bookedBy: bookedBy, conn)[0]
            if case .refused(let feasibility, _) = answer,
                let later = feasibility.suggestions.filter({ $0.asked > soonest && $0.asked <= latestStart }).min(by: { $0.asked < $1.asked })
            {
                back.id = .timeOrdered(at: now)
                back.pickupAt = later.asked
                answer = try Self.bookAll([back], now: now, timeZone: timeZone, willCallWait: policy.willCallMaxWait, bookedBy: bookedBy, conn)[0]
            }
            guard case .booked(let ride) = answer else { return .refused(answer) }
            try WillCallStore.markReady(there, at: now, by: actor, conn)
            if netID == nil {
                try AuditLog.record(
                    conn, actor: actor, action: "ride.ready_for_rider", subject: there.uuidString.lowercased(),
                    details: ["rider": call.netID.rawValue, "return": ride.ref.rawValue])
            }
            return .booked(ride)
        }
        if case .booked(let ride) = outcome { routeChanges.changed(around: ride.pickupAt) }
        return outcome
    }

    /// Ride `there`'s will-call, if it was booked with one (for her when `netID` is given).
    public func willCall(of there: UUID, netID: NetID? = nil) async throws -> WillCall? {
        try await pool.withConnection { conn in
            try WillCallStore.of([there], conn)[there].flatMap { netID == nil || $0.netID == netID ? $0 : nil }
        }
    }

    /// The open will-calls whose ride there is picked up before `before`, oldest first, with their
    /// rides there: the day board's list.
    public func openWillCalls(before: Date, limit: Int = 200) async throws -> [(WillCall, Ride)] {
        try await pool.withConnection { conn in try WillCallStore.open(before: before, limit: limit, conn) }
    }
}
