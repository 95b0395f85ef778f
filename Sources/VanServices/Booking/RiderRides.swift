import Foundation
import VanDomain
import VanPostgres

/// A rider's own rides: every query is scoped to the rider, so another rider's
/// ride is simply not found (a 404, never a 403 that confirms it exists).
public struct RiderRides: Sendable {
    let pool: PGPool
    let routeChanges: RouteChangeHook

    /// Queries over `pool`; a cancellation that frees room on a route tells `routeChanges` after
    /// its commit (the background planner, ``RouteImprover``).
    public init(pool: PGPool, routeChanges: RouteChangeHook = .none) {
        self.pool = pool
        self.routeChanges = routeChanges
    }

    /// Which rides to list.
    public enum Scope: String, Sendable, CaseIterable {
        /// Pickup from now on, soonest first.
        case upcoming
        /// Pickup before now, latest first.
        case past
    }

    /// One page of rides; `after` is the cursor from the previous page.
    public struct Page: Sendable {
        /// The rides on this page.
        public let rides: [Ride]
        /// Pass as `after` for the next page; nil when this is the last.
        public let next: String?
    }

    /// Lists `netID`'s rides in `scope`, at most `limit`, after `cursor` (from a previous page).
    /// `holdingVan` true lists only rides that still hold a van (pending, approved), false only
    /// the others (cancelled, not approved, completed, no-show), nil all of them.
    public func list(
        _ netID: NetID, scope: Scope, now: Date, limit: Int = 20, after cursor: String? = nil, holdingVan: Bool? = nil
    ) async throws -> Page {
        let position = try cursor.map(Cursor.init(text:))
        let status: SQLQuery = holdingVan.map { "AND ride_holds_van(r.status) = \($0)" } ?? ""
        let rows = try await pool.withConnection { conn -> [Ride] in
            let query: SQLQuery = """
                \(RideRecord.select) WHERE r.net_id = \(netID.rawValue) \(status) \(Self.page(scope, now: now, after: position, limit: limit))
                """
            // A rider's app reads this most; prepared once per connection.
            return try conn.query(query.prepared(), results: .binary, rows: RideRecord.ride)
        }
        return Self.page(rows, limit: limit)
    }

    /// Every ride of `netID`'s weekly series `id` (any status), soonest first; empty when the
    /// series is not hers or does not exist.
    public func series(_ id: UUID, for netID: NetID) async throws -> [Ride] {
        try await pool.withConnection { conn in
            try conn.query(
                "\(RideRecord.select) WHERE r.net_id = \(netID.rawValue) AND r.series_id = \(id) ORDER BY r.pickup_at, r.id",
                results: .binary, rows: RideRecord.ride)
        }
    }

    /// Checks a bearer token and lists its rider's rides in `scope` (as ``list(_:scope:now:limit:after:)``
    /// at the check's time) in one statement: one trip to a pool thread and one round trip. The session is checked and its
    /// expiry slides exactly as ``SessionStore/authenticate(digest:now:idleTimeout:)`` does.
    ///
    /// Nil when the session is not live. A session that must change its password gets no rides
    /// (an empty page): the caller refuses it.
    /// - Throws: `ValidationError` for a cursor that is not one (``cursorProblem(_:)``).
    public func list(
        _ check: SessionCheck, scope: Scope, limit: Int = 20, after cursor: String? = nil
    ) async throws -> (session: AuthenticatedSession, page: Page)? {
        let position = try cursor.map(Cursor.init(text:))
        let rows = try await pool.withConnection { conn -> [(AuthenticatedSession, Ride?)] in
            // No ORDER BY over the lateral join (a sort of its own in the plan): the page is put
            // in order here, below, as the subquery's ORDER BY … LIMIT chose it.
            let query: SQLQuery = """
                \(SessionStore.checking(check))
                SELECT \(SessionStore.sessionColumns), rides_page.*
                FROM session s LEFT JOIN LATERAL (
                    \(RideRecord.select)
                    WHERE r.net_id = s.net_id AND NOT s.must_change_password AND s.role = 'rider'
                    \(Self.page(scope, now: check.now, after: position, limit: limit))
                ) rides_page ON true
                """
            // Every page a rider's app reads: prepared once per connection, results in binary
            // (no timestamp text to write and parse).
            return try conn.query(query.prepared(), results: .binary) { row in
                let session = try SessionStore.session(row, digest: check.digest)
                // No ride (none in scope, or a password-change session): one row, the ride's columns NULL.
                let id = try row.decode(UUID?.self, "id")
                return (session, id == nil ? nil : try RideRecord.ride(row))
            }
        }
        guard let session = rows.first?.0 else { return nil }
        return (session, Self.page(Self.ordered(rows.compactMap(\.1), scope), limit: limit))
    }

    /// The problem with `cursor` as an `after` cursor, nil when it is one (or absent).
    public static func cursorProblem(_ cursor: String?) -> ValidationError? {
        guard let cursor else { return nil }
        do {
            _ = try Cursor(text: cursor)
            return nil
        } catch {
            return error
        }
    }

    /// The conditions, order and limit of one page in `scope`, after a ride aliased `r` is
    /// scoped to its rider: one more than `limit`, to tell whether another page follows.
    /// A first page and a later one are two statements (the later with the cursor's condition),
    /// so neither plan depends on whether a cursor was bound: `rides_rider_pickup_id`
    /// `(net_id, pickup_at, id)` returns the rows in page order, with no sort.
    private static func page(_ scope: Scope, now: Date, after position: Cursor?, limit: Int) -> SQLQuery {
        switch (scope, position) {
        case (.upcoming, nil):
            return "AND r.pickup_at >= \(now) ORDER BY r.pickup_at, r.id LIMIT \(limit + 1)"
        case (.upcoming, let position?):
            return """
                AND r.pickup_at >= \(now) AND (r.pickup_at, r.id) > (\(position.pickupAt), \(position.id))
                ORDER BY r.pickup_at, r.id LIMIT \(limit + 1)
                """
        case (.past, nil):
            return "AND r.pickup_at < \(now) ORDER BY r.pickup_at DESC, r.id DESC LIMIT \(limit + 1)"
        case (.past, let position?):
            return """
                AND r.pickup_at < \(now) AND (r.pickup_at, r.id) < (\(position.pickupAt), \(position.id))
                ORDER BY r.pickup_at DESC, r.id DESC LIMIT \(limit + 1)
                """
        }
    }

    /// `rides` in the page's order — `(pickup_at, id)`, ascending for upcoming, descending for
    /// past; ids compared byte by byte, as PostgreSQL compares `uuid`s. A join's rows come in
    /// no promised order, so the page is ordered here rather than by a second sort in the
    /// statement; already in order (as they come), this is one pass.
    static func ordered(_ rides: [Ride], _ scope: Scope) -> [Ride] {
        func ascending(_ a: Ride, _ b: Ride) -> Bool {
            if a.pickupAt != b.pickupAt { return a.pickupAt < b.pickupAt }
            return withUnsafeBytes(of: a.id.uuid) { x in
                withUnsafeBytes(of: b.id.uuid) { y in x.lexicographicallyPrecedes(y) }
            }
        }
        let precedes: (Ride, Ride) -> Bool = scope == .upcoming ? ascending : { ascending($1, $0) }
        if zip(rides, rides.dropFirst()).allSatisfy({ !precedes($1, $0) }) { return rides }
        return rides.sorted(by: precedes)
    }

    /// The first `limit` of `rows` (read one more than `limit`), with the cursor of the next page if there is one.
    private static func page(_ rows: [Ride], limit: Int) -> Page {
        let page = Array(rows.prefix(limit))
        let next = rows.count > limit ? page.last.map { Cursor(pickupAt: $0.pickupAt, id: $0.id).text } : nil
        return Page(rides: page, next: next)
    }

    /// The ride `id` if `netID` owns it.
    public func find(_ id: UUID, for netID: NetID) async throws -> Ride? {
        try await pool.withConnection { conn in
            let query: SQLQuery = "\(RideRecord.select) WHERE r.id = \(id) AND r.net_id = \(netID.rawValue)"
            return try conn.query(query.prepared(), results: .binary, rows: RideRecord.ride).first
        }
    }

    /// The way back booked with her ride `id`, whatever became of it (nil when none was).
    public func wayBack(of id: UUID, for netID: NetID) async throws -> Ride? {
        try await pool.withConnection { conn in
            try conn.query("\(RideRecord.select) WHERE r.return_of = \(id) AND r.net_id = \(netID.rawValue)").first.map(RideRecord.ride)
        }
    }

    /// Why a cancellation was refused.
    public enum CancelError: Error, CustomStringConvertible, Sendable, Equatable {
        /// No such ride for this rider.
        case notFound
        /// The pickup time has passed.
        case afterPickup
        /// The ride is already rejected, cancelled, completed or a no-show.
        case notCancellable(RideStatus)
        /// The driver tapped "boarded" at the pickup (not undone): the rider is in the van.
        case onBoard

        public var description: String {
            switch self {
            case .notFound: return "there is no such ride"
            case .afterPickup: return "the pickup time has passed; call the dispatcher"
            case .notCancellable(let status): return "the ride is \(status.rawValue.replacingOccurrences(of: "_", with: " ")) and cannot be cancelled"
            case .onBoard: return RidePolicy.sentence(.onBoard, .cancel, by: .rider)
            }
        }
    }

    /// A cancelled ride and whether the cancellation came within the late window.
    public struct Cancellation: Sendable {
        /// The ride, now cancelled.
        public let ride: Ride
        /// Within `lateWithin` of pickup.
        public let late: Bool
        /// Its way back, cancelled with it when asked (`withReturn`).
        public var returnRide: Ride?
        /// Its will-call way back, called off with it when asked (`withReturn`) and still open.
        public var willCallClosed = false
    }

    /// Cancels the rider's own ride before pickup; within `lateWithin` of pickup it is recorded as late.
    /// One transaction, through the ride status rules. A dispatcher cancelling for a rider who
    /// phoned names herself as `onBehalfBy`: the cancellation is still the rider's (and late as
    /// hers would be), its event names the dispatcher, and the audit log gets a `ride.cancel_for_rider` line.
    ///
    /// `withReturn` cancels the way back booked with it too (``Ride/returnOf``), in the same
    /// transaction, late by its own pickup, or calls off its will-call; without it the way back stays.
    public func cancel(
        _ id: UUID, for netID: NetID, now: Date, lateWithin: TimeInterval, onBehalfBy actor: String? = nil, withReturn: Bool = false
    ) async throws -> Cancellation {
        let cancellation = try await pool.withTransaction { conn -> Cancellation in
            try TransactionActor.set(actor ?? netID.rawValue, conn)
            guard
                let row = try conn.query(
                    """
                    SELECT status, pickup_at FROM rides WHERE id = \(id) AND net_id = \(netID.rawValue) FOR UPDATE
                    """
                ).first
            else { throw CancelError.notFound }
            guard let status = RideStatus(rawValue: try row.decode(String.self, "status")) else { throw CancelError.notFound }
            let pickupAt = try row.decode(Date.self, "pickup_at")
            // The one policy: the van may be early or late, so a rider it picked up is past
            // cancelling whatever the planned time says (on board, she tells the driver).
            switch RidePolicy.refusal(
                .cancel, by: .rider, status: status, pickupAt: pickupAt, progress: try RidePolicy.Progress.read(id, conn), now: now)
            {
            case nil: break
            case .status(let status): throw CancelError.notCancellable(status)
            case .onBoard: throw CancelError.onBoard
            case .afterPickup, .beforePickup, .byTaps: throw CancelError.afterPickup
            }
            let late = pickupAt.timeIntervalSince(now) <= lateWithin
            try conn.execute(
                """
                UPDATE rides SET status = 'cancelled', cancelled_by = 'rider', cancelled_late = \(late),
                                 cancelled_at = \(now), updated_at = \(now)
                WHERE id = \(id)
                """)
            if let actor {
                try AuditLog.record(
                    conn, actor: actor, action: "ride.cancel_for_rider", subject: id.uuidString.lowercased(),
                    details: ["rider": netID.rawValue, "late": late ? "yes" : "no"])
            }
            var cancellation = Cancellation(
                ride: try RideRecord.ride(try conn.query("\(RideRecord.select) WHERE r.id = \(id)").first!), late: late)
            if withReturn {
                cancellation.returnRide = try Self.cancelReturn(of: id, netID: netID, now: now, lateWithin: lateWithin, conn)
                cancellation.willCallClosed = try WillCallStore.close(id, at: now, by: actor ?? netID.rawValue, conn)
            }
            return cancellation
        }
        routeChanges.changed(around: cancellation.ride.pickupAt)
        if let back = cancellation.returnRide { routeChanges.changed(around: back.pickupAt) }
        return cancellation
    }

    /// A condition on `stop_taps t`: the tap ends the wait at the pickup or comes after it (a
    /// standing one puts the ride past cancelling).
    static let pickedUp: SQLQuery = "t.action IN ('boarded', 'no_show', 'dropped_off')"

    /// Cancels the way back of ride `id` as hers, when it still holds a van and has not begun.
    private static func cancelReturn(of id: UUID, netID: NetID, now: Date, lateWithin: TimeInterval, _ conn: PGConnection) throws -> Ride? {
        guard
            let row = try conn.query(
                "SELECT id, status, pickup_at FROM rides WHERE return_of = \(id) AND net_id = \(netID.rawValue) FOR UPDATE"
            ).first
        else { return nil }
        let back = try row.decode(UUID.self, "id"), pickupAt = try row.decode(Date.self, "pickup_at")
        guard let status = RideStatus(rawValue: try row.decode(String.self, "status")),
            RidePolicy.refusal(.cancel, by: .rider, status: status, pickupAt: pickupAt, progress: try RidePolicy.Progress.read(back, conn), now: now)
                == nil
        else { return nil }
        try conn.execute(
            """
            UPDATE rides SET status = 'cancelled', cancelled_by = 'rider', cancelled_late = \(pickupAt.timeIntervalSince(now) <= lateWithin),
                             cancelled_at = \(now), updated_at = \(now)
            WHERE id = \(back)
            """)
        return try RideRecord.ride(try conn.query("\(RideRecord.select) WHERE r.id = \(back)").first!)
    }

    /// Why `netID` may not cancel her ride `ride` at `now` (``RidePolicy``, with where the ride is
    /// on the road), or nil when she may: what her pages ask before they offer "Cancel this ride".
    public func cancelRefusal(_ ride: Ride, now: Date) async throws -> RidePolicy.Refusal? {
        let progress = try await pool.withConnection { try RidePolicy.Progress.read(ride.id, $0) }
        return RidePolicy.refusal(.cancel, by: .rider, status: ride.status, pickupAt: ride.pickupAt, progress: progress, now: now)
    }

    /// Cancels every not-yet-picked-up ride of `netID`'s series (one the driver has boarded is
    /// skipped, as ``cancel(_:for:now:lateWithin:onBehalfBy:)`` refuses it); returns how many.
    public func cancelSeries(_ seriesID: UUID, for netID: NetID, now: Date, lateWithin: TimeInterval) async throws -> Int {
        let pickups = try await pool.withTransaction { conn -> [Date] in
            try TransactionActor.set(netID.rawValue, conn)
            return try conn.query(
                """
                UPDATE rides SET status = 'cancelled', cancelled_by = 'rider',
                       cancelled_late = (pickup_at - \(now)) <= make_interval(secs => \(lateWithin)),
                       cancelled_at = \(now), updated_at = \(now)
                WHERE series_id = \(seriesID) AND net_id = \(netID.rawValue)
                  AND ride_holds_van(status) AND pickup_at > \(now)
                  AND NOT EXISTS (SELECT 1 FROM stop_taps t WHERE t.ride_id = rides.id AND t.undone_at IS NULL AND \(Self.pickedUp))
                RETURNING pickup_at
                """
            ).map { try $0.decode(Date.self, "pickup_at") }
        }
        for pickup in pickups { routeChanges.changed(around: pickup) }
        return pickups.count
    }
}

/// An opaque page cursor: the last ride's pickup time and id.
struct Cursor: Sendable {
    let pickupAt: Date
    let id: UUID

    init(pickupAt: Date, id: UUID) {
        self.pickupAt = pickupAt
        self.id = id
    }

    init(text: String) throws(ValidationError) {
        // Exactly what `text` writes (openapi.yaml's pattern): 1 to 16 digits, "_", a UUID.
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...16).contains(parts[0].utf8.count), parts[0].utf8.allSatisfy({ (48...57).contains($0) }),
            let micros = Int64(parts[0]), parts[1].utf8.count == 36, let id = UUID(uuidString: String(parts[1]))
        else {
            throw ValidationError(field: "after", reason: "is not a cursor from a previous page")
        }
        pickupAt = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
        self.id = id
    }

    var text: String { "\(Int64((pickupAt.timeIntervalSince1970 * 1_000_000).rounded()))_\(id.uuidString.lowercased())" }
}
