import Foundation
import VanDomain
import VanPostgres

/// The one place that knows the `places` table: campus landmarks riders and drivers know.
public struct PlaceStore: Sendable {
    let pool: PGPool

    /// A store over `pool`.
    public init(pool: PGPool) { self.pool = pool }

    /// Adds a place; a duplicate name is ``FleetError/duplicateName(_:)``.
    public func add(_ place: Place, actor: String) async throws -> Place {
        let place = try Self.validated(place)
        do {
            return try await pool.withTransaction { conn in
                let id = try Self.insert(place, conn)
                try AuditLog.record(conn, actor: actor, action: "place.add", subject: place.name)
                return Place(id: id, name: place.name, aliases: place.aliases, coordinate: place.coordinate)
            }
        } catch let error as PGError where error.sqlState == .uniqueViolation {
            throw FleetError.duplicateName(place.name)
        }
    }

    /// What an import did.
    public struct ImportSummary: Sendable, Equatable {
        /// New places.
        public var added = 0
        /// Existing places whose coordinates or aliases changed.
        public var updated = 0
        /// Places already exactly as in the file.
        public var unchanged = 0
    }

    /// Imports `name,lat,lon[,aliases]` rows (aliases separated by `;`). All or nothing:
    /// any bad line and nothing changes, with every bad line and why. Re-importing changes nothing.
    public func importCSV(_ text: String, actor: String) async throws -> ImportSummary {
        let csv: CSV
        do { csv = try CSV(text) } catch { throw FleetError.badImport(["\(error)"]) }
        for column in ["name", "lat", "lon"] where !csv.header.contains(column) {
            throw FleetError.badImport(["line 1: the header has no '\(column)' column"])
        }
        var places: [Place] = []
        var problems: [String] = []
        var seen: [String: Int] = [:]
        for record in csv.records {
            do {
                guard let name = csv.value("name", in: record) else { throw ValidationError(field: "name", reason: "is empty") }
                guard let lat = csv.value("lat", in: record).flatMap(Double.init) else {
                    throw ValidationError(field: "lat", reason: "is not a number")
                }
                guard let lon = csv.value("lon", in: record).flatMap(Double.init) else {
                    throw ValidationError(field: "lon", reason: "is not a number")
                }
                let aliases = (csv.value("aliases", in: record) ?? "").split(separator: ";").map { String($0).trimmingWhitespace() }.filter {
                    !$0.isEmpty
                }
                let place = try Self.validated(Place(name: name, aliases: aliases, coordinate: Coordinate(latitude: lat, longitude: lon)))
                if let first = seen[place.name.lowercased()] {
                    throw ValidationError(field: "name", reason: "'\(place.name)' is also on line \(first)")
                }
                seen[place.name.lowercased()] = record.line
                places.append(place)
            } catch let error as ValidationError {
                problems.append("line \(record.line): \(error)")
            }
        }
        guard problems.isEmpty else { throw FleetError.badImport(problems) }
        let valid = places
        return try await pool.withTransaction { conn in
            var summary = ImportSummary()
            for place in valid {
                if let row = try conn.query(
                    "SELECT array_to_json(aliases)::text AS aliases, lat, lon FROM places WHERE name = \(place.name) FOR UPDATE"
                ).first {
                    let aliases = try JSONDecoder().decode([String].self, from: Data(try row.decode(String.self, "aliases").utf8))
                    let same =
                        try row.decode(Double.self, "lat") == place.coordinate.latitude
                        && row.decode(Double.self, "lon") == place.coordinate.longitude
                        && aliases == place.aliases
                    if same { summary.unchanged += 1; continue }
                    try conn.execute(
                        """
                        UPDATE places SET aliases = \(Self.arrayLiteral(place.aliases))::text[], lat = \(place.coordinate.latitude), lon = \(place.coordinate.longitude)
                        WHERE name = \(place.name)
                        """)
                    summary.updated += 1
                } else {
                    _ = try Self.insert(place, conn)
                    summary.added += 1
                }
            }
            try AuditLog.record(
                conn, actor: actor, action: "place.import", subject: nil,
                details: [
                    "added": "\(summary.added)", "updated": "\(summary.updated)", "unchanged": "\(summary.unchanged)",
                ])
            return summary
        }
    }

    /// Every place, by name.
    public func list() async throws -> [Place] {
        try await pool.withConnection { conn in try Self.list(conn) }
    }

    /// Places matching `query` by name or alias: exact, then prefix, then substring.
    public func search(_ query: String) async throws -> [Place] {
        let places = try await list()
        return
            places
            .compactMap { place in place.matchQuality(query).map { (place, $0) } }
            .sorted { ($0.1, $0.0.name) < ($1.1, $1.0.name) }
            .map(\.0)
    }

    /// Places nearest to `coordinate`, with their distance in meters, nearest first.
    public func nearest(to coordinate: Coordinate, limit: Int = 10, within meters: Double = .infinity) async throws -> [(Place, Double)] {
        try await list()
            .map { ($0, $0.coordinate.distance(to: coordinate)) }
            .filter { $0.1 <= meters }
            .sorted { $0.1 < $1.1 }
            .prefix(limit)
            .map { $0 }
    }

    static func list(_ conn: PGConnection) throws -> [Place] {
        let decoder = JSONDecoder()  // one for all rows: building one per row showed in the booking profile
        return try conn.query(("SELECT id, name, array_to_json(aliases)::text AS aliases, lat, lon FROM places ORDER BY name" as SQLQuery).prepared())
            .map { row in
                let aliases = try decoder.decode([String].self, from: Data(try row.decode(String.self, "aliases").utf8))
                return Place(
                    id: try row.decode(Int64.self, "id"), name: try row.decode(String.self, "name"), aliases: aliases,
                    coordinate: try Coordinate(latitude: row.decode(Double.self, "lat"), longitude: row.decode(Double.self, "lon")))
            }
    }

    static func insert(_ place: Place, _ conn: PGConnection) throws -> Int64 {
        try conn.query(
            """
            INSERT INTO places (name, aliases, lat, lon)
            VALUES (\(place.name), \(arrayLiteral(place.aliases))::text[], \(place.coordinate.latitude), \(place.coordinate.longitude))
            RETURNING id
            """
        ).first!.decode(Int64.self, "id")
    }

    static func validated(_ place: Place) throws(ValidationError) -> Place {
        let name = place.name.trimmingWhitespace()
        guard (1...120).contains(name.count) else { throw ValidationError(field: "name", reason: "must be 1 to 120 characters") }
        let aliases = place.aliases.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        for alias in aliases where alias.count > 60 {
            throw ValidationError(field: "aliases", reason: "'\(alias.prefix(20))…' is longer than 60 characters")
        }
        return Place(id: place.id, name: name, aliases: aliases, coordinate: place.coordinate)
    }

    /// A PostgreSQL array literal (`{"a","b"}`) sent as one bind parameter.
    static func arrayLiteral(_ values: [String]) -> String {
        "{"
            + values.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }.joined(
                separator: ",") + "}"
    }
}
