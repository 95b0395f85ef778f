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

    /// At most this many rides are listed (the oldest); ``count()`` says how many wait.
    public static let limit = 200

    /// Pending rides at `now`, those whose pickup is soon first, with the route around each.
    public func entries(now: Date, limit: Int = PendingQueue.limit) async throws -> [Entry] {
        let timeZone = self.timeZone
        let soonBefore = now.addingTimeInterval(Self.soon)
        return try await pool.withConnection { conn in
            let pending = try Self.pending(conn, soonBefore: soonBefore, limit: limit)
            // Every ride on the vans and days of the queued rides, read once.
            let days = Set(pending.map { LocalDate(containing: $0.ride.pickupAt, in: timeZone) })
            let vans = Set(pending.compactMap(\.ride.vanID))
            guard let first = days.min(by: { $0.dayNumber < $1.dayNumber }), let last = days.max(by: { $0.dayNumber < $1.dayNumber }), !vans.isEmpty else {
                return pending.map { Entry(listing: $0, route: [], soon: $0.ride.pickupAt < soonBefore) }
            }
            let vanList = "{" + vans.sorted().map(String.init).joined(separator: ",") + "}"
            let onRoutes = try RideQueries.listings(conn, where: """
                r.van_id = ANY(\(vanList)::bigint[]) AND ride_holds_van(r.status)
                AND r.pickup_at >= \(first.interval(in: timeZone).start) AND r.pickup_at < \(last.interval(in: timeZone).end)
                """)
            var routes: [String: [(at: Date, action: Manifest.Stop.Action, listing: RideQueries.Listing)]] = [:]
            for listing in onRoutes {
                let key = Self.key(listing.ride, timeZone)
                routes[key, default: []].append((listing.ride.pickupAt, .pickup, listing))
                routes[key, default: []].append((listing.ride.estimatedDropoffAt, .dropoff, listing))
            }
            for key in routes.keys {
                routes[key]!.sort { a, b in a.at != b.at ? a.at < b.at : (a.action == .dropoff && b.action == .pickup) }
            }
            return pending.map { listing in
                let soon = listing.ride.pickupAt < soonBefore
                guard listing.ride.vanID != nil, let stops = routes[Self.key(listing.ride, timeZone)] else { return Entry(listing: listing, route: [], soon: soon) }
                let own = stops.indices.filter { stops[$0].listing.ride.id == listing.ride.id }
                var shown = Set<Int>()
                for index in own { shown.formUnion([index - 1, index, index + 1].filter(stops.indices.contains)) }
                let route = shown.sorted().map { index in
                    let stop = stops[index]
                    let ride = stop.listing.ride
                    return RouteStop(ref: ride.ref, rider: stop.listing.riderName ?? ride.netID.rawValue, action: stop.action, at: stop.at,
                                     place: (stop.action == .pickup ? ride.pickup : ride.dropoff).displayName, isThisRide: ride.id == listing.ride.id)
                }
                return Entry(listing: listing, route: route, soon: soon)
            }
        }
    }

    /// How many rides wait for a decision.
    public func count() async throws -> Int {
        try await pool.withConnection { try $0.query("SELECT count(*) FROM rides WHERE status = 'pending'").first!.decode(Int.self, at: 0) }
    }

    /// At most `limit` pending rides in the queue's order (``queueOrder(_:_:soonBefore:)``), those
    /// also matching `condition` (on `rides`) when one is given.
    static func pending(_ conn: PGConnection, soonBefore: Date, matching condition: SQLQuery = "true", limit: Int) throws -> [RideQueries.Listing] {
        try RideQueries.listings(conn, where: """
            r.id IN (SELECT id FROM rides WHERE status = 'pending' AND (\(condition))
                     ORDER BY pickup_at < \(soonBefore) DESC, CASE WHEN pickup_at < \(soonBefore) THEN pickup_at END,
                              requested_at, created_at, id
                     LIMIT \(limit))
            """).sorted { queueOrder($0, $1, soonBefore: soonBefore) }
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
