import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// A ride as the rider asked for it, before the scheduler places it.
public struct NewRide: Sendable, Hashable {
    /// The ride's id, chosen by the caller (``UUID/timeOrdered(at:using:)`` at the request's time).
    public var id: UUID
    /// Who rides.
    public var netID: NetID
    /// On demand or scheduled ahead.
    public var kind: RideKind
    /// Where to pick up; `coordinate` set whenever it is known (also for a known place).
    public var pickup: RideEndpoint
    /// Where to drop off.
    public var dropoff: RideEndpoint
    /// The time asked for: the pickup, or the arrival when `promise` is `.arriveBy`.
    public var pickupAt: Date
    /// Pick up at `pickupAt`, or arrive by it.
    public var promise: RidePromise.Kind
    /// Needs a wheelchair position.
    public var needsWheelchair: Bool
    /// Companions riding along (0–2).
    public var companions: Int
    /// A note for the driver.
    public var note: String?
    /// The standing series this occurrence belongs to.
    public var seriesID: UUID?
    /// On a way back booked with its outbound: the outbound's id (booked first, in the same
    /// transaction; both or neither).
    public var returnOf: UUID?
    /// `pending`, or `approved` when auto-approve is on.
    public var status: RideStatus

    /// Creates a request.
    public init(
        id: UUID, netID: NetID, kind: RideKind = .scheduled, pickup: RideEndpoint, dropoff: RideEndpoint,
        pickupAt: Date, promise: RidePromise.Kind = .pickup, needsWheelchair: Bool = false, companions: Int = 0, note: String? = nil,
        seriesID: UUID? = nil, returnOf: UUID? = nil, status: RideStatus = .pending
    ) {
        self.id = id
        self.netID = netID
        self.kind = kind
        self.pickup = pickup
        self.dropoff = dropoff
        self.pickupAt = pickupAt
        self.promise = promise
        self.needsWheelchair = needsWheelchair
        self.companions = companions
        self.note = note
        self.seriesID = seriesID
        self.returnOf = returnOf
        self.status = status
    }
}

/// Books rides: locks the schedule around the time, runs the optimistic
/// scheduler on the rides holding vans, and inserts the ride on the chosen van —
/// all in one transaction, so concurrent bookings can never double-book a van.
public struct BookingService: Sendable {
    let pool: PGPool
    let calendar: ServiceCalendarStore
    let routeChanges: RouteChangeHook
    /// What a request must meet before it is booked, for every way in.
    public let rules: BookingRules

    /// A booking service for a fleet in `timeZone`, checking requests by `rules`. After each
    /// commit that booked rides, `routeChanges` hears of each ride's pickup (the background
    /// planner, ``RouteImprover``).
    public init(pool: PGPool, timeZone: TimeZone, rules: BookingRules = BookingRules(), routeChanges: RouteChangeHook = .none) {
        self.pool = pool
        self.calendar = ServiceCalendarStore(pool: pool, timeZone: timeZone)
        self.rules = rules
        self.routeChanges = routeChanges
    }

    /// Checks what `netID` asked for against ``rules`` (every problem at once, each naming its
    /// field) and builds the rides to book.
    public func check(_ request: BookingRequest, for netID: NetID, places: [Place], now: Date) throws(InvalidFields) -> CheckedBooking {
        try rules.check(request, netID: netID, places: places, timeZone: calendar.timeZone, now: now)
    }

    /// What a booking request needs before it is validated: whether `netID` may book today
    /// and the places to match its pickup and drop-off against — one pool round trip.
    public func requestContext(for netID: NetID, today: LocalDate) async throws -> (eligibility: Eligibility, places: [Place]) {
        try await pool.withConnection { conn in
            (try WhitelistStore(conn).eligibility(netID, today: today), try PlaceStore.list(conn))
        }
    }

    /// Books each ride on its own merits (a standing series), in one transaction: the
    /// answer lists what was booked and what conflicts, with suggestions for each conflict.
    /// A dispatcher booking for a rider (on the phone) names herself as `bookedBy`: the ride's
    /// events carry her name as their actor, and the audit log gets a `book` line per ride.
    ///
    /// A rider under a suspension (``NoShowStanding``) is refused with ``RiderSuspended`` for any
    /// ride on a day it covers, and nothing is booked, unless the dispatcher booking for her gives
    /// `overrideSuspension`, the reason (a medical trip): then the ride is booked, kept when the
    /// suspension starts, and audited.
    ///
    /// With `willCall` (one ride), its way back waits for her call, starting there (``WillCall``):
    /// recorded in the same transaction when the ride is booked.
    public func bookSeries(
        _ rides: [NewRide], now: Date, bookedBy: String? = nil, overrideSuspension: String? = nil, willCall: RideEndpoint? = nil
    ) async throws -> [BookingOutcome] {
        let timeZone = calendar.timeZone, wait = rules.policy.willCallMaxWait
        let outcomes = try await pool.withTransaction { conn in
            let outcomes = try Self.bookAll(
                rides, now: now, timeZone: timeZone, willCallWait: wait, bookedBy: bookedBy, overrideSuspension: overrideSuspension, conn)
            try Self.recordWillCall(willCall, after: outcomes, now: now, conn)
            return outcomes
        }
        announce(outcomes)
        return outcomes
    }

    /// Like ``bookSeries(_:now:bookedBy:)``, guarded by an idempotency key: the first request books and
    /// remembers what it made in the same transaction; a retry with the key gets that back
    /// instead of booking again. Render the fresh answer after this returns (the van-day locks
    /// are released by then) and record it with ``recordAnswer(_:for:)``. A dispatcher booking
    /// for a rider names herself as `bookedBy`, as in ``bookSeries(_:now:bookedBy:)``.
    public func bookSeries(
        _ rides: [NewRide], now: Date, idempotencyKey: IdempotencyKey, bookedBy: String? = nil, willCall: RideEndpoint? = nil
    ) async throws -> IdempotentBooking {
        let timeZone = calendar.timeZone, wait = rules.policy.willCallMaxWait
        let booking = try await pool.withTransaction { conn -> IdempotentBooking in
            if let earlier = try IdempotencyStore.claim(idempotencyKey, conn) { return .replay(earlier) }
            let outcomes = try Self.bookAll(rides, now: now, timeZone: timeZone, willCallWait: wait, bookedBy: bookedBy, conn)
            try Self.recordWillCall(willCall, after: outcomes, now: now, conn)
            try IdempotencyStore.remember(idempotencyKey, RememberedBooking(outcomes, seriesID: rides.first?.seriesID), conn)
            return .fresh(outcomes)
        }
        if case .fresh(let outcomes) = booking { announce(outcomes) }
        return booking
    }

    /// Records the will-call way back of the ride booked (the first outcome), if one was asked.
    private static func recordWillCall(_ willCall: RideEndpoint?, after outcomes: [BookingOutcome], now: Date, _ conn: PGConnection) throws {
        guard let willCall, case .booked(let there)? = outcomes.first else { return }
        try WillCallStore.insert(there: there, pickup: willCall, now: now, conn)
    }

    /// Tells ``routeChanges`` of every ride booked (after the commit, so the planner reads it).
    private func announce(_ outcomes: [BookingOutcome]) {
        for case .booked(let ride) in outcomes { routeChanges.changed(around: ride.pickupAt) }
    }

    /// Keeps the text of the first answer for `key`, so a retry gets exactly the same words.
    public func recordAnswer(_ answer: String, for key: IdempotencyKey) async throws {
        try await pool.withConnection { conn in try IdempotencyStore.recordAnswer(key, answer, conn) }
    }

    /// Books each ride: plans it on a snapshot of the routes, locks the chosen van-day, and
    /// plans again if another writer changed that route in between (at most a few times).
    static func bookAll(
        _ rides: [NewRide], now: Date, timeZone: TimeZone, willCallWait: TimeInterval, bookedBy: String? = nil, overrideSuspension: String? = nil,
        _ conn: PGConnection
    ) throws -> [BookingOutcome] {
        // The fleet and the calendar first: no booking writes them.
        let vans = try VanStore.list(conn, includeRetired: false)
        let calendars = try rides.map { try ServiceCalendarStore.calendar(conn, timeZone: timeZone, around: $0.pickupAt) }
        let schedulers = calendars.map(\.scheduler)
        guard let netID = rides.first?.netID, let first = rides.map(\.pickupAt).min(), let last = rides.map(\.pickupAt).max() else { return [] }
        // One booking of a rider at a time: the check below then sees every ride she holds.
        try lockRider(netID, conn)
        if let bookedBy { try conn.execute("SELECT set_config('vand.actor', \(bookedBy), true)") }
        // The no-show policy, on every path: under her lock, so a notice written now is seen.
        let overridden = try suspensionsOver(rides, netID: netID, timeZone: timeZone, bookedBy: bookedBy, override: overrideSuspension, conn)
        // What she was refused lately, for a booking that answers it (before any van-day lock).
        let refusals = try Negotiation.recent(netID, now: now, timeZone: timeZone, conn)
        // The room kept for open will-calls, if the office keeps it (not theirs that these rides answer).
        let holds =
            try calendars.first?.settings.willCallHoldMinutes.map { minutes in
                try WillCallHolds.near(
                    DateInterval(start: first, end: last), after: TimeInterval(minutes * 60), wait: willCallWait,
                    excluding: Set(rides.compactMap(\.returnOf)), now: now, conn)
            } ?? .none
        var held = try RideRecord.held(
            by: netID,
            around: DateInterval(
                start: first.addingTimeInterval(-VanDayRoutes.longestRide),
                end: last.addingTimeInterval(VanDayRoutes.longestRide)), conn)
        var outcomes: [BookingOutcome] = []
        for (ride, scheduler) in zip(rides, schedulers) {
            let request = RideRequest(
                pickup: ride.pickup.coordinate, dropoff: ride.dropoff.coordinate, wheelchair: ride.needsWheelchair,
                pickupAt: ride.pickupAt, promise: ride.promise, companions: ride.companions, notBefore: now)
            let span = RidePromise(kind: ride.promise, asked: ride.pickupAt, width: scheduler.windowWidth)
                .riderSpan(maxRideTime: scheduler.maxRideTime(for: request))
            if let other = held.first(where: { Self.overlap($0.promise.riderSpan(maxRideTime: $0.maxRideTime), span) }) {
                outcomes.append(.overlaps(other))
                continue
            }
            let outcome = try book(
                ride, request, scheduler: scheduler, vans: vans, holds: holds.around(ride.pickupAt), refusals: refusals, now: now, conn)
            if case .booked(let booked) = outcome {
                held.append(booked)
                if let suspension = overridden[ride.id], let bookedBy, let overrideSuspension {
                    try conn.execute(
                        """
                        INSERT INTO suspension_overrides (ride_id, suspension_id, reason, booked_by, booked_at)
                        VALUES (\(booked.id), \(suspension.id), \(overrideSuspension), \(bookedBy), \(now))
                        """)
                    try AuditLog.record(
                        conn, actor: bookedBy, action: "book.override_suspension", subject: booked.id.uuidString.lowercased(),
                        details: ["rider": netID.rawValue, "ref": booked.ref.rawValue, "case": String(suspension.id), "reason": overrideSuspension])
                }
                if let bookedBy {
                    try AuditLog.record(
                        conn, actor: bookedBy, action: "book", subject: booked.id.uuidString.lowercased(),
                        details: ["rider": netID.rawValue, "ref": booked.ref.rawValue])
                }
            }
            outcomes.append(outcome)
        }
        // A new weekly series gets its record (sql/0040) once any occurrence is booked.
        if rides.first?.seriesID != nil, outcomes.contains(where: { $0.refusalCode == nil }) {
            try SeriesStore.record(rides, timeZone: timeZone, now: now, conn)
        }
        return outcomes
    }

    /// The suspensions that cover `rides`' days, by ride: refused with ``RiderSuspended`` unless the
    /// office books over them for a reason (only a dispatcher, `bookedBy`, may).
    private static func suspensionsOver(
        _ rides: [NewRide], netID: NetID, timeZone: TimeZone, bookedBy: String?, override: String?, _ conn: PGConnection
    ) throws -> [UUID: Suspension] {
        let days = rides.map { LocalDate(containing: $0.pickupAt, in: timeZone) }
        guard let first = days.min(), let last = days.max() else { return [:] }
        let blocking = try SuspensionStore.blocking(netID.rawValue, from: first, to: last, conn)
        guard !blocking.isEmpty else { return [:] }
        var over: [UUID: Suspension] = [:]
        for (ride, day) in zip(rides, days) {
            guard let suspension = blocking.first(where: { $0.blocks(day) }) else { continue }
            guard bookedBy != nil, let override, !override.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw RiderSuspended(suspension: suspension, timeZone: timeZone)
            }
            over[ride.id] = suspension
        }
        return over
    }

    /// Whether two half-open spans share an instant.
    static func overlap(_ a: DateInterval, _ b: DateInterval) -> Bool { a.start < b.end && b.start < a.end }

    /// Names the transaction's actor (the rider) and waits for any other booking of hers to end.
    static func lockRider(_ netID: NetID, _ conn: PGConnection) throws {
        try conn.query(
            ("""
            SELECT set_config('vand.actor', \(netID.rawValue), true), pg_advisory_xact_lock(hashtextextended('vand_rider:' || \(netID.rawValue), 0))
            """ as SQLQuery).prepared())
    }

    /// How many lost races a booking runs before it waits for every van's van-days around its ride.
    static let racesBeforeWaiting = 3

    private static func book(
        _ ride: NewRide, _ request: RideRequest, scheduler: Scheduler, vans: [Van], holds: WillCallHolds,
        refusals: [TripKey: [TripRequests.Refusal]], now: Date, _ conn: PGConnection
    ) throws -> BookingOutcome {
        var lost: VanDayRoutes.Snapshot?  // what the last plan read, when a race sent it round again
        for attempt in 0..<8 {
            if attempt == Self.racesBeforeWaiting {
                // Lost that many races in a row (a burst all choosing one van): take every van's
                // van-days around the ride first, then plan under them; this attempt cannot lose.
                try VanDayRoutes.lockEveryVan(
                    vans, around: scheduler.routeSpan(around: request.pickupAt),
                    timeZone: scheduler.hours.timeZone, conn)
                lost = nil
            }
            let (feasibility, snapshot) = try VanDayRoutes.plan(request, scheduler: scheduler, vans: vans, earlier: lost, conn)
            guard case .feasible(let planned) = feasibility else {
                // Kept for the report: a refusal for lack of a van is a denial unless she books the trip soon after.
                try Negotiation.recordRefusal(ride, reason: feasibility.refusalCode, now: now, conn)
                return .refused(feasibility, sentence: scheduler.sentence(for: feasibility, requested: ride.pickupAt, promise: ride.promise))
            }
            // A placement that takes an open will-call's last room goes to another van, or is
            // refused at this time with the nearest times that leave it.
            guard let assignment = holds.placement(planned, of: request, on: snapshot.rides, scheduler: scheduler, vans: vans) else {
                let refusal = holds.suggestions(for: request, on: snapshot.rides, scheduler: scheduler, vans: vans)
                try Negotiation.recordRefusal(ride, reason: refusal.refusalCode, now: now, conn)
                return .refused(refusal, sentence: scheduler.sentence(for: refusal, requested: ride.pickupAt, promise: ride.promise))
            }
            // A savepoint, so a route changed under the plan, or a promise that only a by-hand
            // writer could break, undoes this occurrence alone and keeps the rest of the series.
            try VanDayRoutes.beginWrite(conn, savepoint: "booking")
            let vanDays = VanDayRoutes.vanDays(vanID: assignment.vanID, changes: assignment.changes, timeZone: scheduler.hours.timeZone)
            guard try VanDayRoutes.lock(vanDays, unchangedSince: snapshot, conn) else {
                try conn.execute(simple: "ROLLBACK TO SAVEPOINT booking")
                lost = snapshot
                continue  // re-plan
            }
            do {
                // The insert writes the re-planned rides too, and the check releases the savepoint:
                // two round trips while the van-day rows are locked.
                let booked = try insert(ride, assignment: assignment, requestedAt: now, conn)
                try VanDayRoutes.checkNow(conn, releasing: "booking")
                try Negotiation.answer(ride, booked: booked.id, among: refusals, now: now, timeZone: scheduler.hours.timeZone, conn)
                return .booked(booked)
            } catch let error as PGError where error.sqlState == .checkViolation {
                try conn.execute(simple: "ROLLBACK TO SAVEPOINT booking")
                let occupied = Feasibility.infeasible(reason: .occupied, earlier: nil, later: nil)
                try Negotiation.recordRefusal(ride, reason: occupied.refusalCode, now: now, conn)
                return .refused(occupied, sentence: scheduler.sentence(for: occupied, requested: ride.pickupAt, promise: ride.promise))
            }
        }
        let busy = Feasibility.infeasible(reason: .occupied, earlier: nil, later: nil)
        try Negotiation.recordRefusal(ride, reason: busy.refusalCode, now: now, conn)
        return .refused(busy, sentence: scheduler.sentence(for: busy, requested: ride.pickupAt, promise: ride.promise))
    }

    /// The free intervals on `day` in which a typical ride could start.
    public func availability(on day: LocalDate, wheelchair: Bool) async throws -> [DateInterval] {
        let timeZone = calendar.timeZone
        let interval = day.interval(in: timeZone)
        return try await pool.withConnection { conn in
            let scheduler = try ServiceCalendarStore.scheduler(conn, timeZone: timeZone, around: interval.start)
            let vans = try VanStore.list(conn, includeRetired: false)
            let reach = scheduler.routeSpan(around: interval.start).duration / 2
            let booked = try RideRecord.booked(
                conn,
                aboardIn: DateInterval(
                    start: interval.start.addingTimeInterval(-reach), end: interval.end.addingTimeInterval(reach)),
                longestRide: VanDayRoutes.longestRide)
            return scheduler.availability(on: day, wheelchair: wheelchair, vans: vans, rides: booked)
        }
    }

    /// Inserts the ride, writes the other rides' re-planned times, and reads the ride back (with
    /// its places' and van's names), in one prepared statement.
    static func insert(_ ride: NewRide, assignment: Assignment, requestedAt: Date, _ conn: PGConnection) throws -> Ride {
        let query: SQLQuery = """
            WITH replanned AS (
                \(VanDayRoutes.replanning(assignment.replanned, now: requestedAt))
            ), r AS (
                INSERT INTO rides (id, net_id, kind,
                    pickup_address, pickup_lat, pickup_lon, pickup_place_id,
                    dropoff_address, dropoff_lat, dropoff_lon, dropoff_place_id,
                    requested_at, pickup_at, estimated_dropoff_at, needs_wheelchair, companions, note, status, van_id, series_id, return_of,
                    promise, window_start, window_end, max_ride_seconds)
                VALUES (\(ride.id), \(ride.netID.rawValue), \(ride.kind.rawValue),
                    \(ride.pickup.address), \(ride.pickup.coordinate?.latitude), \(ride.pickup.coordinate?.longitude), \(ride.pickup.placeID),
                    \(ride.dropoff.address), \(ride.dropoff.coordinate?.latitude), \(ride.dropoff.coordinate?.longitude), \(ride.dropoff.placeID),
                    \(requestedAt), \(assignment.pickupAt), \(assignment.dropoffAt), \(ride.needsWheelchair), \(ride.companions),
                    \(ride.note), \(ride.status.rawValue), \(assignment.vanID), \(ride.seriesID), \(ride.returnOf),
                    \(assignment.promise.kind.rawValue), \(assignment.promise.window.start), \(assignment.promise.window.end),
                    \(Int(assignment.maxRideTime)))
                RETURNING *
            )
            \(RideRecord.columns) FROM r \(RideRecord.joins)
            """
        guard let ride = try conn.query(query.prepared(), results: .binary, rows: RideRecord.ride).first else {
            throw PGError(kind: .decoding, message: "the inserted ride was not returned")
        }
        return ride
    }
}
