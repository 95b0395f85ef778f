import Foundation
import VanDomain
import VanPostgres

/// Shifts: a driver starts one on a van and ends it; the dispatcher may end any (audited).
/// One open shift per van and per driver, by the database; a race between two starts leaves
/// exactly one standing and gives the other a ``RoadError``.
public struct ShiftService: Sendable {
    let pool: PGPool
    let clock: any TimeSource

    /// Shifts over `pool`, timed by `clock`.
    public init(pool: PGPool, clock: any TimeSource) {
        self.pool = pool
        self.clock = clock
    }

    /// The driver's open shift, if any.
    public func current(driver: NetID) async throws -> Shift? {
        try await pool.withConnection { try ShiftStore($0).open(driver: driver) }
    }

    /// The van's open shift, if any.
    public func current(vanID: Int64) async throws -> Shift? {
        try await pool.withConnection { try ShiftStore($0).open(vanID: vanID) }
    }

    /// Every open shift, by van name.
    public func open() async throws -> [Shift] {
        try await pool.withConnection { try ShiftStore($0).allOpen() }
    }

    /// Starts the driver's shift on the active van `vanID`.
    /// - Throws: ``RoadError/unknownVan(_:)``, ``RoadError/vanHasShift(van:)``,
    ///   ``RoadError/driverHasShift(van:)``, ``RoadError/notADriver(_:)``.
    public func start(driver: NetID, vanID: Int64) async throws -> Shift {
        let now = clock.now
        return try await pool.withTransaction { conn in
            guard let van = try VanStore.list(conn, includeRetired: false).first(where: { $0.id == vanID }) else {
                throw RoadError.unknownVan("#\(vanID)")
            }
            return try ShiftStore(conn).start(driver: driver, vanID: van.id, vanName: van.name, now: now)
        }
    }

    /// Ends the driver's own open shift.
    /// - Throws: ``RoadError/noOpenShift``.
    public func end(driver: NetID) async throws -> Shift {
        let now = clock.now
        return try await pool.withTransaction { conn in
            let store = ShiftStore(conn)
            guard let shift = try store.open(driver: driver), try store.end(id: shift.id, by: driver.rawValue, now: now) else {
                throw RoadError.noOpenShift
            }
            return try store.shift(id: shift.id)!
        }
    }

    /// The dispatcher ends the open shift of the van named `vanName`, audited as `actor`.
    /// - Throws: ``RoadError/unknownVan(_:)``, ``RoadError/vanHasNoShift(van:)``.
    public func end(vanNamed vanName: String, actor: String) async throws -> Shift {
        let now = clock.now
        return try await pool.withTransaction { conn in
            guard let van = try VanStore.list(conn, includeRetired: true).first(where: { $0.name == vanName }) else {
                throw RoadError.unknownVan(vanName)
            }
            let store = ShiftStore(conn)
            guard let shift = try store.open(vanID: van.id), try store.end(id: shift.id, by: actor, now: now) else {
                throw RoadError.vanHasNoShift(van: van.name)
            }
            try AuditLog.record(
                conn, actor: actor, action: "shift.end", subject: String(shift.id),
                details: ["van": van.name, "driver": shift.driverNetID.rawValue])
            return try store.shift(id: shift.id)!
        }
    }
}
