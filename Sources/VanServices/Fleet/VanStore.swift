import Foundation
import VanDomain
import VanPostgres

/// The one place that knows the `vans` table.
public struct VanStore: Sendable {
    let pool: PGPool

    /// A store over `pool`.
    public init(pool: PGPool) { self.pool = pool }

    /// Adds a van; a duplicate name is ``FleetError/duplicateName(_:)``.
    public func add(name: String, seats: Int, wheelchairPositions: Int, actor: String) async throws -> Van {
        let trimmed = try Self.validName(name)
        _ = try Van(id: 0, name: trimmed, seats: seats, wheelchairPositions: wheelchairPositions)
        do {
            return try await pool.withTransaction { conn in
                let row = try conn.query(
                    """
                    INSERT INTO vans (name, seats, wheelchair_positions) VALUES (\(trimmed), \(seats), \(wheelchairPositions))
                    RETURNING id, name, seats, wheelchair_positions, active
                    """
                ).first!
                try AuditLog.record(
                    conn, actor: actor, action: "van.add", subject: trimmed,
                    details: ["seats": "\(seats)", "wheelchair_positions": "\(wheelchairPositions)"])
                return try Self.van(row)
            }
        } catch let error as PGError where error.sqlState == .uniqueViolation {
            throw FleetError.duplicateName(trimmed)
        }
    }

    /// Every van, active first, then by name.
    public func list(includeRetired: Bool = true) async throws -> [Van] {
        try await pool.withConnection { conn in
            try Self.list(conn, includeRetired: includeRetired)
        }
    }

    /// Changes seats, wheelchair positions or the name of the van called `name`.
    public func update(name: String, newName: String?, seats: Int?, wheelchairPositions: Int?, actor: String) async throws -> Van {
        let renamed = try newName.map(Self.validName)
        return try await pool.withTransaction { conn in
            guard let current = try conn.query("SELECT id, name, seats, wheelchair_positions, active FROM vans WHERE name = \(name) FOR UPDATE").first
            else {
                throw FleetError.unknownVan(name)
            }
            let van = try Self.van(current)
            let updated = try Van(
                id: van.id, name: renamed ?? van.name, seats: seats ?? van.seats,
                wheelchairPositions: wheelchairPositions ?? van.wheelchairPositions, active: van.active)
            do {
                try conn.execute(
                    """
                    UPDATE vans SET name = \(updated.name), seats = \(updated.seats), wheelchair_positions = \(updated.wheelchairPositions)
                    WHERE id = \(van.id)
                    """)
            } catch let error as PGError where error.sqlState == .uniqueViolation {
                throw FleetError.duplicateName(updated.name)
            }
            try AuditLog.record(
                conn, actor: actor, action: "van.update", subject: van.name,
                details: [
                    "name": updated.name, "seats": "\(updated.seats)", "wheelchair_positions": "\(updated.wheelchairPositions)",
                ])
            return updated
        }
    }

    /// Retires a van: it takes no new rides. Returns its rides still holding it from `now` on,
    /// which the dispatcher must move.
    public func retire(name: String, now: Date, actor: String) async throws -> [RideRef] {
        try await pool.withTransaction { conn in
            guard let row = try conn.query("UPDATE vans SET active = false WHERE name = \(name) RETURNING id").first else {
                throw FleetError.unknownVan(name)
            }
            let id = try row.decode(Int64.self, "id")
            try AuditLog.record(conn, actor: actor, action: "van.retire", subject: name)
            return try conn.query(
                """
                SELECT ref FROM rides WHERE van_id = \(id) AND ride_holds_van(status) AND pickup_at >= \(now)
                ORDER BY pickup_at
                """
            ).map { try RideRef(validating: try $0.decode(String.self, "ref")) }
        }
    }

    static func list(_ conn: PGConnection, includeRetired: Bool) throws -> [Van] {
        // Every booking reads the fleet: prepared once per connection.
        try conn.query(
            ("""
            SELECT id, name, seats, wheelchair_positions, active FROM vans
            WHERE active OR \(includeRetired) ORDER BY active DESC, name
            """ as SQLQuery).prepared()
        ).map(van)
    }

    static func van(_ row: PGRow) throws -> Van {
        try Van(
            id: row.decode(Int64.self, "id"), name: row.decode(String.self, "name"), seats: row.decode(Int.self, "seats"),
            wheelchairPositions: row.decode(Int.self, "wheelchair_positions"), active: row.decode(Bool.self, "active"))
    }

    static func validName(_ name: String) throws(ValidationError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(trimmed.count) else { throw ValidationError(field: "name", reason: "must be 1 to 64 characters") }
        return trimmed
    }
}

/// Why a fleet, place or calendar change was refused.
public enum FleetError: Error, CustomStringConvertible, Equatable, Sendable {
    /// No van by that name.
    case unknownVan(String)
    /// A van or place with that name exists.
    case duplicateName(String)
    /// No place by that name.
    case unknownPlace(String)
    /// An import file had bad lines; nothing was imported.
    case badImport([String])

    public var description: String {
        switch self {
        case .unknownVan(let name): return "no van named '\(name)'; see `vanadmin vans list`"
        case .duplicateName(let name): return "'\(name)' already exists; pick another name or update the existing one"
        case .unknownPlace(let name): return "no place named '\(name)'; see `vanadmin places list`"
        case .badImport(let problems): return "nothing imported; fix these lines: " + problems.joined(separator: "; ")
        }
    }
}
