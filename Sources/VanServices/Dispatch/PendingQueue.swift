import Foundation
import VanDomain
import VanPostgres

/// The dispatcher's queue: rides waiting for a decision, each with the stops around it on its
/// van's planned route (what approving it means for that van). Rides whose pickup is less than
/// ``soon`` away come first, soonest pickup first (a ride-now request must not wait behind next
/// week's); then the rest, oldest booking first.
public struct PendingQueue: Sendable {
    let pool: PGPool
    let timeZone: TimeZone

    /// The queue over `pool`, days read in `timeZone`.
    public init(pool: PGPool, timeZone: TimeZone) {
        self.pool = pool
        self.timeZone = timeZone
    }

    /// One stop of a van's planned route: a ride's pickup or drop-off.
    public struct RouteStop: Sendable, Hashable {
        /// The ride stopped for.
        public let ref: RideRef
        /// The rider's name (her net ID when the account has none).
        public let rider: String
        /// Pickup or drop-off.
        public let action: Manifest.Stop.Action
        /// The planned time.
        public let at: Date
        /// Where.
        public let place: String
        /// Whether it is the queued ride's own stop.
        public let isThisRide: Bool
    }

    /// One pending ride with the route around it.
    public struct Entry: Sendable {
        /// The ride, its rider's name and phone.
        public let listing: RideQueries.Listing
        /// The stops just before and after its pickup and its drop-off on its van's planned
        /// route that day, in driving order, its own two included (empty without a van).
        public let route: [RouteStop]
        /// Whether its pickup is less than ``PendingQueue/soon`` away: decide it first.
        public let soon: Bool
    }

    /// A pending ride whose pickup is less than this away is decided first, and is an alert at once.
    public static let soon: TimeInterval = 30 * 60

    /// Rides a page of the queue lists: what a dispatcher reads before she decides, within the
    /// console's page budget (50 kB decoded, each ride with its route is about 2.6 kB of HTML).
    public static let pageSize = 10

    /// The `page`th page (from 1) of pending rides at `now`, those whose pickup is soon first,
    /// each with the route around it.
    ///
    /// Reads only what the page shows, however big the day: the page's rides, and for each of
    /// their stops the stops just before and after it on its van's route that day, found by the
    /// database (`lag`/`lead` over the stops of those vans and days) rather than by reading
    /// every ride of them (a van with 1,000 rides made the queue take seconds).
    public func entries(now: Date, page: Int = 1, pageSize: Int = PendingQueue.pageSize) async throws -> [Entry] {
        let timeZone = self.timeZone
        let soonBefore = now.addingTimeInterval(Self.soon)
        return try await pool.withConnection { conn in
            let pending = try Self.pending(conn, soonBefore: soonBefore, offset: (max(1, page) - 1) * pageSize, limit: pageSize)
            let days = Set(pending.map { LocalDate(containing: $0.ride.pickupAt, in: timeZone) })
            let vans = Set(pending.compactMap(\.ride.vanID))
            guard let first = days.min(by: { $0.dayNumber < $1.dayNumber }), let last = days.max(by: { $0.dayNumber < $1.dayNumber }), !vans.isEmpty
            else {
                return pending.map { Entry(listing: $0, route: [], soon: $0.ride.pickupAt < soonBefore) }
            }
            let vanList = "{" + vans.sorted().map(String.init).joined(separator: ",") + "}"
            let own = pending.filter { $0.ride.vanID != nil }.map(\.ride.id).postgresArrayLiteral
            // Each of the page's own stops with its neighbours on its van's route that day, in the
            // route's order: by time, a drop-off before a pickup at the same time, then by ride.
            var neighbours: [UUID: Set<RideStop>] = [:]
            for row in try conn.query(
                """
                WITH stops AS (
                    SELECT id, van_id, (pickup_at AT TIME ZONE \(timeZone.identifier))::date AS day, 'pickup' AS action, pickup_at AS at, 1 AS rank
                    FROM rides r
                    WHERE r.van_id = ANY(\(vanList)::bigint[]) AND ride_holds_van(r.status)
                      AND r.pickup_at >= \(first.interval(in: timeZone).start) AND r.pickup_at < \(last.interval(in: timeZone).end)
                    UNION ALL
                    SELECT id, van_id, (pickup_at AT TIME ZONE \(timeZone.identifier))::date, 'dropoff', estimated_dropoff_at, 0
                    FROM rides r
                    WHERE r.van_id = ANY(\(vanList)::bigint[]) AND ride_holds_van(r.status)
                      AND r.pickup_at >= \(first.interval(in: timeZone).start) AND r.pickup_at < \(last.interval(in: timeZone).end)
                ), ordered AS (
                    SELECT id, action,
                           lag(id) OVER route AS before_id, lag(action) OVER route AS before_action,
                           lead(id) OVER route AS after_id, lead(action) OVER route AS after_action
                    FROM stops WINDOW route AS (PARTITION BY van_id, day ORDER BY at, rank, id)
                )
                SELECT id, action, before_id, before_action, after_id, after_action FROM ordered WHERE id = ANY(\(own)::uuid[])
                """)
            {
                let id = try row.decode(UUID.self, "id")
                var shown: Set<RideStop> = [RideStop(ride: id, action: Self.action(try row.decode(String.self, "action")))]
                if let before = try row.decode(UUID?.self, "before_id") {
                    shown.insert(RideStop(ride: before, action: Self.action(try row.decode(String.self, "before_action"))))
                }
                if let after = try row.decode(UUID?.self, "after_id") {
                    shown.insert(RideStop(ride: after, action: Self.action(try row.decode(String.self, "after_action"))))
                }
                neighbours[id, default: []].formUnion(shown)
            }
            let ids = Set(neighbours.values.flatMap { $0.map(\.ride) })
            var rides: [UUID: RideQueries.Listing] = [:]
            if !ids.isEmpty {
                let list = ids.postgresArrayLiteral
                for listing in try RideQueries.listings(conn, where: "r.id = ANY(\(list)::uuid[])") { rides[listing.ride.id] = listing }
            }
            return pending.map { listing in
                let soon = listing.ride.pickupAt < soonBefore
                guard listing.ride.vanID != nil, let stops = neighbours[listing.ride.id] else {
                    return Entry(listing: listing, route: [], soon: soon)
                }
                let route = stops.compactMap { stop -> (RouteStop, UUID)? in
                    guard let stopRide = rides[stop.ride] else { return nil }
                    let ride = stopRide.ride
                    return (
                        RouteStop(
                            ref: ride.ref, rider: stopRide.riderName ?? ride.netID.rawValue, action: stop.action,
                            at: stop.action == .pickup ? ride.pickupAt : ride.estimatedDropoffAt,
                            place: (stop.action == .pickup ? ride.pickup : ride.dropoff).displayName, isThisRide: ride.id == listing.ride.id), ride.id
                    )
                }
                .sorted { a, b in
                    if a.0.at != b.0.at { return a.0.at < b.0.at }
                    if a.0.action != b.0.action { return a.0.action == .dropoff }
                    return a.1.uuidString.lowercased() < b.1.uuidString.lowercased()
                }
                .map(\.0)
                return Entry(listing: listing, route: route, soon: soon)
            }
        }
    }

    /// A ride's pickup or drop-off.
    private struct RideStop: Hashable {
        let ride: UUID
        let action: Manifest.Stop.Action
    }

    private static func action(_ text: String) -> Manifest.Stop.Action {
        text == "pickup" ? .pickup : .dropoff
    }

    /// How many rides wait for a decision.
    public func count() async throws -> Int {
        try await pool.withConnection { try $0.query("SELECT count(*) AS n FROM rides WHERE status = 'pending'").first!.decode(Int.self, "n") }
    }

    /// At most `limit` pending rides in the queue's order (``queueOrder(_:_:soonBefore:)``) after
    /// the first `offset`, those also matching `condition` (on `rides`) when one is given.
    static func pending(_ conn: PGConnection, soonBefore: Date, matching condition: SQLQuery = "true", offset: Int = 0, limit: Int) throws
        -> [RideQueries.Listing]
    {
        try RideQueries.listings(
            conn,
            where: """
                r.id IN (SELECT id FROM rides WHERE status = 'pending' AND (\(condition))
                         ORDER BY pickup_at < \(soonBefore) DESC, CASE WHEN pickup_at < \(soonBefore) THEN pickup_at END,
                                  requested_at, created_at, id
                         LIMIT \(limit) OFFSET \(offset))
                """
        ).sorted { queueOrder($0, $1, soonBefore: soonBefore) }
    }

    /// The queue's order: pickups before `soonBefore` first, soonest first; then oldest booking first.
    static func queueOrder(_ a: RideQueries.Listing, _ b: RideQueries.Listing, soonBefore: Date) -> Bool {
        let (aSoon, bSoon) = (a.ride.pickupAt < soonBefore, b.ride.pickupAt < soonBefore)
        if aSoon != bSoon { return aSoon }
        if aSoon, a.ride.pickupAt != b.ride.pickupAt { return a.ride.pickupAt < b.ride.pickupAt }
        return bookedFirst(a, b)
    }

    /// Oldest booking first: when the rider asked, then when it was written.
    static func bookedFirst(_ a: RideQueries.Listing, _ b: RideQueries.Listing) -> Bool {
        (a.ride.requestedAt, a.ride.createdAt, a.ride.id.uuidString) < (b.ride.requestedAt, b.ride.createdAt, b.ride.id.uuidString)
    }

    private static func key(_ ride: Ride, _ timeZone: TimeZone) -> String {
        "\(ride.vanID ?? 0)/\(LocalDate(containing: ride.pickupAt, in: timeZone))"
    }
}
