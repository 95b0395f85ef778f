import Foundation
import VanDomain
import VanPostgres
import VanScheduler

/// The routes of van-days as the scheduler reads them, and the one-writer-per-van-day rule:
/// a writer plans from a read, then locks the rows of the van-days its change touches and checks
/// their `version`s are still the ones it read; if another writer got there first it plans again.
/// Bookings on different vans, or hours apart on one van, never wait for each other.
enum VanDayRoutes {
    /// The longest a ride may be aboard: a read of a span also takes the rides picked up this long
    /// before it that are still aboard when it starts (``Scheduler/routeSpan(around:)``).
    static let longestRide: TimeInterval = 12 * 3_600
    /// How far either side of its change a writer locks: two changes further apart than twice this
    /// cannot touch each other's stops (a van crosses campus in minutes), so they never share a
    /// van-day and never wait; two closer together always share one.
    static let lockMargin: TimeInterval = 2 * 3_600

    /// What a writer read: the rides holding vans in a span, and the versions of the van-days then.
    struct Snapshot {
        let span: DateInterval
        let rides: [BookedRide]
        let versions: [VanDay: Int64]
    }

    /// One van's local date: the unit a writer locks.
    struct VanDay: Hashable {
        let vanID: Int64
        let day: LocalDate
    }

    /// Reads the versions first, then the rides picked up in `span` or still aboard at its start:
    /// a write that lands in between bumps a version this snapshot has the old value of, so the
    /// writer re-plans (never the other way round).
    ///
    /// Given an `earlier` snapshot of the same span (a writer planning again after losing a
    /// race), only the vans with a van-day whose version moved are read again: every write of a
    /// route bumps the versions of the van-days it touches, so the other vans' rides are as
    /// `earlier` read them. A re-plan then reads the few rides of the van it lost, not hundreds.
    static func snapshot(_ conn: PGConnection, span: DateInterval, reusing earlier: Snapshot? = nil) throws -> Snapshot {
        let versions = try self.versions(conn, span: span)
        guard let earlier, earlier.span == span else {
            return Snapshot(span: span, rides: try RideRecord.booked(conn, aboardIn: span, longestRide: longestRide), versions: versions)
        }
        var moved = Set<Int64>()
        for (key, version) in versions where earlier.versions[key] != version { moved.insert(key.vanID) }
        for key in earlier.versions.keys where versions[key] == nil { moved.insert(key.vanID) }
        guard !moved.isEmpty else { return Snapshot(span: span, rides: earlier.rides, versions: versions) }
        let kept = earlier.rides.filter { !moved.contains($0.vanID) }
        let reread = try RideRecord.booked(conn, aboardIn: span, longestRide: longestRide, vans: moved.sorted())
        return Snapshot(span: span, rides: kept + reread, versions: versions)
    }

    /// The versions of every van-day from the day before `span` to the day after it.
    private static func versions(_ conn: PGConnection, span: DateInterval) throws -> [VanDay: Int64] {
        // Day numbers, not text dates: a day or two of every van's rows, read on every booking.
        var versions: [VanDay: Int64] = [:]
        let query: SQLQuery = """
            SELECT van_id, day - DATE '1970-01-01' AS day_number, version FROM van_days
            WHERE day BETWEEN \(span.start)::date - 1 AND \(span.end)::date + 1
            """
        for (key, version) in try conn.query(
            query.prepared(), results: .binary,
            rows: { row in
                (
                    VanDay(vanID: try row.decode(Int64.self, "van_id"), day: LocalDate(dayNumber: Int(try row.decode(Int32.self, "day_number")))),
                    try row.decode(Int64.self, "version")
                )
            })
        {
            versions[key] = version
        }
        return versions
    }

    /// How far either side of the asked time a booking first plans (``Scheduler/routeReach``, with
    /// no suggestion window): every van's rides over three hours, not the suggestion window's
    /// hours either side too. Most bookings fit as asked; only a refusal needs the nearest times.
    static let askedReach: TimeInterval = 5_400
    /// How far beyond the suggestion window a booking that does not fit as asked plans: a few
    /// hours of rides, not the scheduler's day either side.
    static let shortReach: TimeInterval = 3 * 3_600
    /// How far either side one van's route is read first when a placement came near where its
    /// read was cut: a few of the van's trips, where the scheduler's reach is two days of them.
    static let vanReach: TimeInterval = 6 * 3_600

    /// Plans `request` in up to three reads, each only when the one before cannot settle it:
    /// 1. the asked time alone, on every van's rides within ``askedReach``;
    /// 2. if it does not fit as asked, the asked time and the nearest times that work, on the rides
    ///    within ``shortReach`` of the suggestion window;
    /// 3. if that placement too comes near its cut, every van's rides over the scheduler's reach.
    ///
    /// A placement near where its read was cut (``Assignment/nearRouteEdge``) is first placed again
    /// on its own van's longer route (``settle(_:of:read:scheduler:vans:_:)``), so no ride left
    /// out of a read is pushed or followed unseen. A refusal on a shorter read stands: it is the
    /// longer read with rides left out, and fewer rides never make a ride fit less. A van whose
    /// route a read cut short has the options before its first stop as read priced without the
    /// stop before it (dearer or cheaper than they are), so a booking may pick another van, or
    /// another time in its window, than a plan over every van's whole day would (`ReadReachTests`
    /// measures how often); the background improver re-plans the day.
    /// `earlier` is the snapshot a lost race planned on: a read of the same span reuses what did
    /// not change. Returns the answer and the snapshot it was planned on (whose versions, taken
    /// before any of its reads, are the ones the van-day lock checks).
    static func plan(
        _ request: RideRequest, scheduler: Scheduler, vans: [Van], earlier: Snapshot? = nil,
        _ conn: PGConnection
    ) throws -> (Feasibility, Snapshot) {
        var asked = scheduler
        asked.searchWindow = 0
        asked.routeReach = min(askedReach, scheduler.routeReach)
        let narrow = try self.snapshot(conn, span: asked.routeSpan(around: request.pickupAt), reusing: earlier)
        if case .feasible(let assignment) = asked.check(request, vans: vans, rides: narrow.rides),
            let settled = try settle(assignment, of: request, read: narrow, scheduler: scheduler, vans: vans, conn)
        {
            return (.feasible(settled), narrow)
        }
        var near = scheduler
        near.routeReach = min(shortReach, scheduler.routeReach)
        let snapshot = try self.snapshot(conn, span: near.routeSpan(around: request.pickupAt), reusing: earlier)
        let feasibility = near.check(request, vans: vans, rides: snapshot.rides)
        guard case .feasible(let assignment) = feasibility else { return (feasibility, snapshot) }
        if let settled = try settle(assignment, of: request, read: snapshot, scheduler: scheduler, vans: vans, conn) {
            return (.feasible(settled), snapshot)
        }
        let wide = try self.snapshot(conn, span: scheduler.routeSpan(around: request.pickupAt), reusing: earlier)
        return (scheduler.check(request, vans: vans, rides: wide.rides), wide)
    }

    /// `assignment` when it did not come near where `read` was cut; else the ride placed again on
    /// its van's own route read further out (``vanReach``, then the scheduler's reach), which is
    /// exact for that van once the placement is clear of that read's cut. When a further read finds
    /// the van has no rides the read before did not have, that route was whole and its placement
    /// stands. Nil when neither settles it, or the ride no longer fits. The reads are a few dozen
    /// rows of one van, not every van's.
    private static func settle(
        _ assignment: Assignment, of request: RideRequest, read: Snapshot, scheduler: Scheduler,
        vans: [Van], _ conn: PGConnection
    ) throws -> Assignment? {
        guard assignment.nearRouteEdge else { return assignment }
        var sameVan = request
        sameVan.vanID = assignment.vanID
        var placed = assignment, span = read.span
        var rides = Set(read.rides.lazy.filter { $0.vanID == assignment.vanID }.map(\.id))
        let wholeReach = scheduler.routeReach + max(0, scheduler.searchWindow.isFinite ? scheduler.searchWindow : 0)
        for reach in [min(vanReach, wholeReach), wholeReach] {
            var onVan = scheduler
            onVan.searchWindow = 0
            onVan.routeReach = reach
            guard onVan.routeSpan(around: request.pickupAt).duration > span.duration else { continue }
            span = onVan.routeSpan(around: request.pickupAt)
            let route = try RideRecord.booked(conn, aboardIn: span, longestRide: longestRide, vans: [assignment.vanID])
            let ids = Set(route.map(\.id))
            if ids == rides { return placed }
            guard case .feasible(let onRoute) = onVan.check(sameVan, vans: vans, rides: route) else { return nil }
            if !onRoute.nearRouteEdge { return onRoute }
            (placed, rides) = (onRoute, ids)
        }
        return nil
    }

    /// The van-days a change of `vanID`'s route over `changes` locks: every local date within
    /// ``lockMargin`` of it, in order.
    static func vanDays(vanID: Int64, changes: DateInterval, timeZone: TimeZone) -> [VanDay] {
        let first = LocalDate(containing: changes.start.addingTimeInterval(-lockMargin), in: timeZone)
        let last = LocalDate(containing: changes.end.addingTimeInterval(lockMargin), in: timeZone)
        return (first.dayNumber...max(first.dayNumber, last.dayNumber)).map { VanDay(vanID: vanID, day: LocalDate(dayNumber: $0)) }
    }

    /// Locks `vanDays` for writing and bumps their versions, in one statement (in (day, van) order,
    /// as every writer takes them: no deadlocks); true when each was still as `snapshot` read it.
    /// Run it inside a savepoint and roll back to it on false: that gives the locks up again, so
    /// a writer that plans again and picks another van never holds two van-days out of order.
    static func lock(_ vanDays: [VanDay], unchangedSince snapshot: Snapshot, _ conn: PGConnection) throws -> Bool {
        var unchanged = true
        for (key, version) in try bump(vanDays, conn) where version - 1 != (snapshot.versions[key] ?? 0) { unchanged = false }
        return unchanged
    }

    /// Locks `vanDays` until the transaction ends, whatever their versions (the van-days a moved
    /// ride leaves, which its plan did not read).
    static func lockUnchecked(_ vanDays: [VanDay], _ conn: PGConnection) throws {
        _ = try bump(vanDays, conn)
    }

    /// Locks the van-days of every van in `vans` that a change anywhere in `span` could lock, until
    /// the transaction ends: after it, a plan around `span` cannot lose its race (``lock(_:unchangedSince:_:)``
    /// finds its versions as read). The way out for a booking that lost several races in a row
    /// (a burst of bookings all choosing one van): it waits its turn instead of racing again.
    static func lockEveryVan(_ vans: [Van], around span: DateInterval, timeZone: TimeZone, _ conn: PGConnection) throws {
        _ = try bump(vans.flatMap { vanDays(vanID: $0.id, changes: span, timeZone: timeZone) }, conn)
    }

    /// Locks and bumps `vanDays` (every van and day between theirs); their new versions.
    private static func bump(_ vanDays: [VanDay], _ conn: PGConnection) throws -> [(VanDay, Int64)] {
        guard !vanDays.isEmpty else { return [] }
        let vans = "{" + Set(vanDays.map(\.vanID)).sorted().map(String.init).joined(separator: ",") + "}"
        let days = vanDays.map(\.day.dayNumber)
        let query: SQLQuery = """
            INSERT INTO van_days (van_id, day, version)
            SELECT v, DATE '1970-01-01' + d::integer, 1
            FROM generate_series(\(days.min()!), \(days.max()!)) d CROSS JOIN unnest(\(vans)::bigint[]) v
            ORDER BY d, v
            ON CONFLICT (van_id, day) DO UPDATE SET version = van_days.version + 1
            RETURNING van_id, day - DATE '1970-01-01' AS day_number, version
            """
        let wanted = Set(vanDays)
        return try conn.query(
            query.prepared(), results: .binary,
            rows: { row in
                (
                    VanDay(vanID: try row.decode(Int64.self, "van_id"), day: LocalDate(dayNumber: Int(try row.decode(Int32.self, "day_number")))),
                    try row.decode(Int64.self, "version")
                )
            }
        ).filter { wanted.contains($0.0) }
    }

    /// Writes the other rides' new planned times, in one prepared statement however many there
    /// are (a statement per ride would cost a round trip, a parse and a plan each).
    static func write(_ replanned: [UUID: PlannedStops], now: Date, _ conn: PGConnection) throws {
        guard !replanned.isEmpty else { return }
        try conn.execute(replanning(replanned, now: now).prepared())
    }

    /// The `UPDATE` that writes `replanned`'s planned times (none: it changes no row), to run
    /// alone (``write(_:now:_:)``) or as a `WITH` of the booking's insert (one round trip).
    static func replanning(_ replanned: [UUID: PlannedStops], now: Date) -> SQLQuery {
        let rides = PlannedRides(replanned.map { ($0.key, nil, $0.value) })
        // `id = ANY(…)` is an index scan whatever the generic plan guesses of the arrays' length
        // (a join to `unnest` was planned as a hash join over every ride).
        return """
            UPDATE rides SET pickup_at = (\(rides.pickups)::timestamptz[])[array_position(\(rides.ids)::uuid[], id)],
                             estimated_dropoff_at = (\(rides.dropoffs)::timestamptz[])[array_position(\(rides.ids)::uuid[], id)],
                             updated_at = \(now)
            WHERE id = ANY(\(rides.ids)::uuid[])
            """
    }

    /// The `UPDATE` that puts each ride of `changes` on its van at its planned times, if it still
    /// holds a van (the improver's write: hundreds of rides in one statement, not one each).
    static func reassigning(_ changes: [UUID: (vanID: Int64, stops: PlannedStops)], now: Date) -> SQLQuery {
        let rides = PlannedRides(changes.map { ($0.key, $0.value.vanID, $0.value.stops) })
        return """
            UPDATE rides SET van_id = (\(rides.vans)::bigint[])[array_position(\(rides.ids)::uuid[], id)],
                             pickup_at = (\(rides.pickups)::timestamptz[])[array_position(\(rides.ids)::uuid[], id)],
                             estimated_dropoff_at = (\(rides.dropoffs)::timestamptz[])[array_position(\(rides.ids)::uuid[], id)],
                             updated_at = \(now)
            WHERE id = ANY(\(rides.ids)::uuid[]) AND ride_holds_van(status)
            """
    }

    /// Rides' ids, vans and planned times as array literals to bind as text (in id order): uuids
    /// and numbers need no quotes, timestamps (with a space) do.
    private struct PlannedRides {
        let ids: String, vans: String, pickups: String, dropoffs: String

        init(_ rides: [(id: UUID, vanID: Int64?, stops: PlannedStops)]) {
            let sorted = rides.sorted { $0.id.uuidString < $1.id.uuidString }
            func array(_ items: [String]) -> String { "{" + items.joined(separator: ",") + "}" }
            ids = array(sorted.map { $0.id.uuidString })
            vans = array(sorted.map { $0.vanID.map(String.init) ?? "NULL" })
            pickups = array(sorted.map { "\"\(PGTimestamp.format($0.stops.pickupAt))\"" })
            dropoffs = array(sorted.map { "\"\(PGTimestamp.format($0.stops.dropoffAt))\"" })
        }
    }

    /// Opens `savepoint` for one writer's change, in which its statements keep to the indexes:
    /// they look rides up by id or by van and day, and a plan a connection caches on first use (on
    /// a young table, a scan of all of it) would be kept as the table grows. Rolling back to the
    /// savepoint ends that too; ``checkNow(_:releasing:)`` ends it when it releases the savepoint.
    static func beginWrite(_ conn: PGConnection, savepoint: StaticString) throws {
        try conn.execute(simple: "SAVEPOINT \(savepoint); SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off")
    }

    /// Checks the promises of everything written so far (the deferred route trigger) now, inside
    /// the caller's savepoint, so a refusal can undo one occurrence and keep the rest.
    /// With `releasing` (a savepoint from ``beginWrite(_:savepoint:)``), the planner settings are
    /// restored and that savepoint released in the same round trip once the check passes (a
    /// refusal leaves it in place, to roll back to).
    static func checkNow(_ conn: PGConnection, releasing savepoint: StaticString? = nil) throws {
        let release = savepoint.map { "; SET LOCAL enable_seqscan = on; SET LOCAL enable_bitmapscan = on; RELEASE SAVEPOINT \($0)" } ?? ""
        try conn.execute(simple: "SET CONSTRAINTS rides_route_check IMMEDIATE; SET CONSTRAINTS rides_route_check DEFERRED" + release)
    }
}
