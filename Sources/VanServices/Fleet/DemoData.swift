import Foundation
import VanDomain
import VanPostgres

/// A small, realistic data set for trying vand: three vans (one with no wheelchair
/// position) and a dozen Yale landmarks with real coordinates. Service hours are
/// the paper's, seeded by the migrations.
public enum DemoData {
    /// The demo fleet: name, seats, wheelchair positions.
    public static let vans: [(String, Int, Int)] = [
        ("Van 1", 8, 2),
        ("Van 2", 8, 1),
        ("Van 3", 6, 0),
    ]

    /// Campus places: name, aliases, latitude, longitude.
    public static let places: [(String, [String], Double, Double)] = [
        ("Sterling Memorial Library", ["SML"], 41.31112, -72.92880),
        ("Student Accessibility Services", ["SAS"], 41.31022, -72.92618),
        ("Sheffield-Sterling-Strathcona Hall", ["SSS"], 41.31086, -72.92513),
        ("Sterling Chemistry Lab", ["SCL"], 41.31633, -72.92241),
        ("Davenport College", ["Davenport", "D'Port"], 41.30917, -72.93139),
        ("Payne Whitney Gym", ["PWG", "Gym"], 41.31295, -72.93076),
        ("Yale Health Center", ["Yale Health", "55 Lock Street"], 41.31759, -72.92582),
        ("Bass Library", ["Bass"], 41.31047, -72.92817),
        ("Commons (Schwarzman Center)", ["Commons", "Schwarzman"], 41.31176, -72.92576),
        ("Kline Biology Tower", ["KBT", "Kline Tower"], 41.31838, -72.92244),
        ("Yale-New Haven Hospital", ["YNHH", "Hospital"], 41.30409, -72.93628),
        ("Union Station New Haven", ["Union Station", "Train Station"], 41.29749, -72.92663),
    ]

    /// What loading did.
    public enum Outcome: Sendable, Equatable {
        /// Loaded the vans and places.
        case loaded(vans: Int, places: Int)
        /// The database already had vans or places; nothing changed.
        case skippedNotEmpty
    }

    /// Loads the demo set into an empty fleet (no vans, no places); otherwise changes nothing.
    public static func load(into pool: PGPool, actor: String) async throws -> Outcome {
        try await pool.withTransaction { conn in
            // Two concurrent loaders: the second waits, then sees the first one's rows.
            try conn.execute("LOCK TABLE vans, places IN SHARE ROW EXCLUSIVE MODE")
            let existing = try conn.query("SELECT (SELECT count(*) FROM vans) + (SELECT count(*) FROM places) AS n").first!.decode(Int.self, "n")
            guard existing == 0 else { return .skippedNotEmpty }
            for (name, seats, wheelchair) in vans {
                try conn.execute("INSERT INTO vans (name, seats, wheelchair_positions) VALUES (\(name), \(seats), \(wheelchair))")
            }
            for (name, aliases, lat, lon) in places {
                _ = try PlaceStore.insert(Place(name: name, aliases: aliases, coordinate: try Coordinate(latitude: lat, longitude: lon)), conn)
            }
            try AuditLog.record(conn, actor: actor, action: "demo.load", subject: nil)
            return .loaded(vans: vans.count, places: places.count)
        }
    }
}
