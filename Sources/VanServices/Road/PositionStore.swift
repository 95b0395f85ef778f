import Foundation
import VanDomain
import VanPostgres

/// The one place that knows `van_positions` (latest per van) and `van_trail` (every fix).
struct PositionStore {
    let connection: PGConnection

    init(_ connection: PGConnection) { self.connection = connection }

    /// Adds the fix to the van's trail and makes it the van's latest position unless a newer one
    /// is there already (a tracker sending fixes it buffered, within the accepted window of
    /// ``RoadSettings/time(of:now:)``, never moves the van back).
    /// The write to `van_positions` notifies `vand_van_positions` with the van's id.
    ///
    /// At most one fix per van per second (of its time) is kept: nil, nothing written and nobody
    /// told, when the trail has one in that second already. Must run inside a transaction: the
    /// van's advisory lock makes two fixes of one second take turns, so only the first is kept.
    func record(vanID: Int64, fix: PositionFix, at: Date, source: VanPosition.Source) throws -> VanPosition? {
        let lat = fix.coordinate.latitude, lon = fix.coordinate.longitude
        let second = Date(timeIntervalSince1970: (at.timeIntervalSince1970).rounded(.down))
        try connection.execute("SELECT pg_advisory_xact_lock(hashtextextended('vand_van_position:' || \(vanID)::text, 0))")
        let taken =
            try connection.query(
                """
                SELECT EXISTS (SELECT 1 FROM van_trail WHERE van_id = \(vanID) AND at >= \(second) AND at < \(second.addingTimeInterval(1))) AS taken
                """
            ).first?.decode(Bool.self, "taken") ?? false
        guard !taken else { return nil }
        try connection.execute(
            """
            WITH trail AS (
                INSERT INTO van_trail (van_id, at, lat, lon, accuracy_m, source)
                VALUES (\(vanID), \(at), \(lat), \(lon), \(fix.accuracyMeters), \(source.rawValue))
            )
            INSERT INTO van_positions AS p (van_id, at, lat, lon, accuracy_m, source)
            VALUES (\(vanID), \(at), \(lat), \(lon), \(fix.accuracyMeters), \(source.rawValue))
            ON CONFLICT (van_id) DO UPDATE SET at = EXCLUDED.at, lat = EXCLUDED.lat, lon = EXCLUDED.lon,
                accuracy_m = EXCLUDED.accuracy_m, source = EXCLUDED.source
            WHERE p.at <= EXCLUDED.at
            """)
        return VanPosition(vanID: vanID, at: at, coordinate: fix.coordinate, accuracyMeters: fix.accuracyMeters, source: source)
    }

    /// The van's latest position.
    func latest(vanID: Int64) throws -> VanPosition? {
        try connection.query("SELECT van_id, at, lat, lon, accuracy_m, source FROM van_positions WHERE van_id = \(vanID)").first.map(Self.position)
    }

    /// Every van's latest position.
    func latestAll() throws -> [VanPosition] {
        try connection.query("SELECT van_id, at, lat, lon, accuracy_m, source FROM van_positions ORDER BY van_id").map(Self.position)
    }

    /// The van's trail in `span`, oldest first.
    func trail(vanID: Int64, in span: DateInterval) throws -> [VanPosition] {
        try connection.query(
            """
            SELECT van_id, at, lat, lon, accuracy_m, source FROM van_trail
            WHERE van_id = \(vanID) AND at >= \(span.start) AND at < \(span.end) ORDER BY at, id
            """
        ).map(Self.position)
    }

    /// Deletes trail fixes taken before `cutoff`; how many.
    func prune(before cutoff: Date) throws -> Int {
        try connection.execute("DELETE FROM van_trail WHERE at < \(cutoff)")
    }

    static func position(_ row: PGRow) throws -> VanPosition {
        guard let source = VanPosition.Source(rawValue: try row.decode(String.self, "source")) else {
            throw PGError(kind: .decoding, message: "van position has an unknown source")
        }
        return VanPosition(
            vanID: try row.decode(Int64.self, "van_id"), at: try row.decode(Date.self, "at"),
            coordinate: try Coordinate(latitude: try row.decode(Double.self, "lat"), longitude: try row.decode(Double.self, "lon")),
            accuracyMeters: try row.decode(Double?.self, "accuracy_m"), source: source
        )
    }
}
