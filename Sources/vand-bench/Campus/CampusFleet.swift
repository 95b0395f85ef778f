import Foundation
import VanDomain
import VanPostgres
import VanServices

/// The vans and places of a campus-day database, and its riders.
struct CampusFleet: Sendable {
    /// A van to install: name, seats, wheelchair positions.
    struct VanSpec: Hashable, Sendable {
        var name: String
        var seats: Int
        var wheelchairPositions: Int
    }

    /// The vans.
    var vans: [VanSpec]

    /// `count` vans cycling through the demo fleet (``DemoData/vans``: 8 seats and 2
    /// wheelchair positions, 8 and 1, 6 and none), each with `seats` seats if given.
    init(vans count: Int, seats: Int? = nil) {
        vans = (0..<count).map { index in
            let demo = DemoData.vans[index % DemoData.vans.count]
            return VanSpec(name: "Van \(index + 1)", seats: seats ?? demo.1, wheelchairPositions: demo.2)
        }
    }

    /// A demo place as the bookings use it.
    struct Site: Hashable, Sendable {
        var placeID: Int64
        var name: String
        var coordinate: Coordinate
    }

    /// Loads the demo places and this fleet into an empty, migrated database, with riders
    /// `0..<riders`; returns the places in ``DemoData/places`` order.
    func install(into database: Database, riders: Int) async throws -> [Site] {
        _ = try await DemoData.load(into: database.pool, actor: "vand-bench")
        let vans = self.vans
        return try await database.pool.withTransaction { conn in
            try conn.execute("DELETE FROM vans")
            for van in vans {
                try conn.execute(
                    "INSERT INTO vans (name, seats, wheelchair_positions) VALUES (\(van.name), \(van.seats), \(van.wheelchairPositions))")
            }
            for rider in 0..<riders {
                try conn.execute("INSERT INTO riders (net_id, password_hash) VALUES (\(try Self.netID(rider).rawValue), 'x')")
            }
            var byName: [String: Site] = [:]
            for row in try conn.query("SELECT id, name, lat, lon FROM places") {
                let name = try row.decode(String.self, "name")
                byName[name] = Site(
                    placeID: try row.decode(Int64.self, "id"), name: name,
                    coordinate: try Coordinate(latitude: try row.decode(Double.self, "lat"), longitude: try row.decode(Double.self, "lon")))
            }
            return try DemoData.places.map { place in
                guard let site = byName[place.0] else { throw CampusBenchError("demo place \(place.0) is missing") }
                return site
            }
        }
    }

    /// The net ID of rider `index`.
    static func netID(_ index: Int) throws -> NetID {
        try NetID("rider\(index)")
    }
}

/// A campus-day failure, in one line.
struct CampusBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
