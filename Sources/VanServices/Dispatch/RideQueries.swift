import Foundation
import VanDomain
import VanPostgres

/// The dispatcher's reads over every rider's rides.
public struct RideQueries: Sendable {
    let pool: PGPool

    /// Queries over `pool`.
    public init(pool: PGPool) { self.pool = pool }

    /// A ride with what the dispatcher needs beside it.
    public struct Listing: Sendable, Codable {
        /// The ride.
        public let ride: Ride
        /// The rider's name, if known.
        public let riderName: String?
        /// The rider's phone, if known.
        public let riderPhone: String?
    }

    /// Rides matching every given filter, soonest pickup first.
    public func list(status: RideStatus? = nil, day: LocalDate? = nil, van: String? = nil, rider: NetID? = nil, timeZone: TimeZone) async throws
        -> [Listing]
    {
        let interval = day?.interval(in: timeZone)
        return try await pool.withConnection { conn in
            try Self.listings(
                conn,
                where: """
                    (\(status?.rawValue)::text IS NULL OR r.status = \(status?.rawValue))
                    AND (\(interval?.start) IS NULL OR (r.pickup_at >= \(interval?.start) AND r.pickup_at < \(interval?.end)))
                    AND (\(van)::text IS NULL OR r.van_id = (SELECT id FROM vans WHERE name = \(van)))
                    AND (\(rider?.rawValue)::text IS NULL OR r.net_id = \(rider?.rawValue))
                    """)
        }
    }

    static func listings(_ conn: PGConnection, where condition: SQLQuery) throws -> [Listing] {
        try conn.query(
            """
            SELECT base.*, ri.name AS rider_name, ri.phone AS rider_phone
            FROM (\(RideRecord.select) WHERE \(condition)) AS base
            LEFT JOIN riders ri ON ri.net_id = base.net_id
            ORDER BY base.pickup_at, base.id
            """
        ).map { row in
            Listing(
                ride: try RideRecord.ride(row), riderName: try row.decode(String?.self, "rider_name"),
                riderPhone: try row.decode(String?.self, "rider_phone"))
        }
    }

    /// The way back booked with ride `id`, while it still holds a van.
    public func wayBack(of id: UUID) async throws -> Ride? {
        try await pool.withConnection { conn in
            try conn.query("\(RideRecord.select) WHERE r.return_of = \(id) AND ride_holds_van(r.status)").first.map(RideRecord.ride)
        }
    }

    /// A way back's ride there in words for the dispatcher, flagged when she did not show for it
    /// (the way back stands unless the office's policy cancels it); nil for a ride that is no way back.
    public func rideThereWords(of ride: Ride, clock: ServiceTime) async throws -> String? {
        guard let there = ride.returnOf else { return nil }
        return try await pool.withConnection { conn in
            guard let first = try conn.query("\(RideRecord.select) WHERE r.id = \(there)").first.map(RideRecord.ride) else { return nil }
            let words = "\(first.ref.rawValue) at \(clock.text(first.pickupAt, .clockTime)) (\(first.status.rawValue))"
            return first.status == .noShow ? words + " — SHE DID NOT SHOW for the ride there: call her before the van goes" : words
        }
    }

    /// Ride `id`'s way back in words for the dispatcher: the ride booked with it, or its
    /// will-call and where it stands; nil when it has none.
    public func wayBackWords(of id: UUID, clock: ServiceTime) async throws -> String? {
        try await pool.withConnection { conn in
            if let back = try conn.query("\(RideRecord.select) WHERE r.return_of = \(id)").first.map(RideRecord.ride) {
                return "\(back.ref.rawValue) at \(clock.text(back.pickupAt, .clockTime)) (\(back.status.rawValue))"
            }
            guard let call = try WillCallStore.of([id], conn)[id] else { return nil }
            return switch call.state {
            case .open: "she calls when ready, from \(call.pickup.displayName): open since \(clock.text(call.createdAt, .dayAtTime))"
            case .ready: "she called at \(call.readyAt.map { clock.text($0, .clockTime) } ?? "?")"
            case .closed: "will-call called off"
            }
        }
    }

    /// Calls off ride `id`'s will-call way back, if it is open; whether it was.
    public func closeWillCall(of id: UUID, actor: String, now: Date) async throws -> Bool {
        try await pool.withTransaction { conn in
            try TransactionActor.set(actor, conn)
            return try WillCallStore.close(id, at: now, by: actor, conn)
        }
    }

    /// The ride named by `id`: its reference, its id, or a prefix of the id only it has.
    public func find(_ id: String) async throws -> Ride? {
        try await pool.withConnection { conn in
            guard let rideID = try? Self.resolve(id, conn) else { return nil }
            return try conn.query("\(RideRecord.select) WHERE r.id = \(rideID)").first.map(RideRecord.ride)
        }
    }

    /// Everything about one ride: the listing and its history, oldest first.
    /// Who pinned ride `id` to its van (a dispatcher's move or approval naming a van), or nil
    /// when the planner may move it (sql/0036).
    public func vanPinnedBy(_ id: UUID) async throws -> String? {
        try await pool.withConnection { conn in
            try conn.query("SELECT van_pinned_by FROM rides WHERE id = \(id)").first?.decode(String?.self, "van_pinned_by")
        }
    }

    public func show(_ id: String) async throws -> (Listing, [HistoryEntry]) {
        try await pool.withConnection { conn in
            let rideID = try Self.resolve(id, conn)
            guard let listing = try Self.listings(conn, where: "r.id = \(rideID)").first else { throw DispatchService.DispatchError.notFound(id) }
            let history = try conn.query(
                """
                SELECT at, actor, action, details::text AS details FROM audit_log WHERE subject = \(rideID.uuidString.lowercased())
                UNION ALL
                SELECT created_at, 'system', 'event.' || kind, payload::text FROM ride_events WHERE ride_id = \(rideID)
                ORDER BY 1
                """
            ).map { row in
                HistoryEntry(
                    at: try row.decode(Date.self, "at"), actor: try row.decode(String.self, "actor"), action: try row.decode(String.self, "action"),
                    details: try row.decode(String.self, "details"))
            }
            return (listing, history)
        }
    }

    /// One line of a ride's history.
    public struct HistoryEntry: Sendable, Codable {
        /// When.
        public let at: Date
        /// Who (a dispatcher, or `system` for database events).
        public let actor: String
        /// What.
        public let action: String
        /// Details as JSON text.
        public let details: String
    }

    /// Resolves what a dispatcher typed: a ride's reference (`K7M-3QX`, in any case, with or
    /// without the dash), its full id, or a prefix of the id (at least 4 characters) that
    /// only one ride has. Text that reads both as a reference and as an id prefix (`0A1B2C`)
    /// names a ride only when both readings agree or only one finds a ride.
    static func resolve(_ text: String, _ conn: PGConnection) throws -> UUID {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let id = UUID(uuidString: trimmed) { return id }
        let ref = try? RideRef(validating: trimmed)
        let prefix = trimmed.lowercased()
        let isPrefix = prefix.count >= 4 && prefix.allSatisfy { $0.isHexDigit || $0 == "-" }
        guard ref != nil || isPrefix else { throw DispatchService.DispatchError.notFound(text) }
        let matches = try conn.query(
            """
            SELECT id FROM rides WHERE ref = \(ref?.rawValue)
            UNION
            SELECT id FROM rides WHERE \(isPrefix) AND id::text LIKE \(prefix + "%")
            LIMIT 2
            """
        ).map { try $0.decode(UUID.self, "id") }
        guard let first = matches.first else { throw DispatchService.DispatchError.notFound(text) }
        guard matches.count == 1 else { throw DispatchService.DispatchError.ambiguous(text) }
        return first
    }
}
