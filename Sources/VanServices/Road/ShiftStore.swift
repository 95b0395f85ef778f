import Foundation
import VanDomain
import VanPostgres

/// The one place that knows the `shifts` table. One open shift per van and per driver is the
/// database's rule (partial unique indexes); ``start(driver:vanID:now:)`` maps a refusal to
/// ``RoadError``.
struct ShiftStore {
    let connection: PGConnection

    init(_ connection: PGConnection) { self.connection = connection }

    private static let select: SQLQuery = """
        SELECT s.id, s.driver_net_id, s.van_id, v.name, s.started_at, s.ended_at, s.ended_by
        FROM shifts s JOIN vans v ON v.id = s.van_id
        """

    /// The driver's open shift.
    func open(driver: NetID) throws -> Shift? {
        try connection.query("\(Self.select) WHERE s.driver_net_id = \(driver) AND s.ended_at IS NULL").first.map(Self.shift)
    }

    /// The van's open shift.
    func open(vanID: Int64) throws -> Shift? {
        try connection.query("\(Self.select) WHERE s.van_id = \(vanID) AND s.ended_at IS NULL").first.map(Self.shift)
    }

    /// Every open shift, by van name.
    func allOpen() throws -> [Shift] {
        try connection.query("\(Self.select) WHERE s.ended_at IS NULL ORDER BY v.name").map(Self.shift)
    }

    /// The shift with `id`.
    func shift(id: Int64) throws -> Shift? {
        try connection.query("\(Self.select) WHERE s.id = \(id)").first.map(Self.shift)
    }

    /// Whether the shift `id` is still open, holding it so (a share lock: ending it waits for this
    /// transaction).
    func stillOpen(id: Int64) throws -> Bool {
        try connection.query("SELECT ended_at IS NULL AS open FROM shifts WHERE id = \(id) FOR SHARE").first?.decode(Bool.self, "open") ?? false
    }

    /// Opens a shift; a second open one for the van or the driver is refused by the database.
    func start(driver: NetID, vanID: Int64, vanName: String, now: Date) throws -> Shift {
        try connection.execute(simple: "SAVEPOINT shift_start")
        let rows: PGRows
        do {
            rows = try connection.query("INSERT INTO shifts (driver_net_id, van_id, started_at) VALUES (\(driver), \(vanID), \(now)) RETURNING id")
        } catch {
            try connection.execute(simple: "ROLLBACK TO SAVEPOINT shift_start")
            throw try refusal(error, driver: driver, vanName: vanName)
        }
        try connection.execute(simple: "RELEASE SAVEPOINT shift_start")
        let id = try rows.first!.decode(Int64.self, "id")
        return Shift(id: id, driverNetID: driver, vanID: vanID, vanName: vanName, startedAt: now)
    }

    /// What a refused insert means: the rule the database held, or the error itself.
    private func refusal(_ error: PGError, driver: NetID, vanName: String) throws -> any Error {
        guard error.sqlState == .uniqueViolation || error.sqlState == .checkViolation else { return error }
        switch error.constraint {
        case "shifts_one_open_per_van": return RoadError.vanHasShift(van: vanName)
        case "shifts_one_open_per_driver": return RoadError.driverHasShift(van: try open(driver: driver)?.vanName ?? "another van")
        case "shifts_driver_role": return RoadError.notADriver(driver)
        default: return error
        }
    }

    /// Ends the open shift `id` at `now`; false when it was not open.
    func end(id: Int64, by actor: String, now: Date) throws -> Bool {
        try connection.execute(
            """
            UPDATE shifts SET ended_at = GREATEST(\(now), started_at), ended_by = \(actor) WHERE id = \(id) AND ended_at IS NULL
            """) == 1
    }

    static func shift(_ row: PGRow) throws -> Shift {
        Shift(
            id: try row.decode(Int64.self, "id"), driverNetID: try row.decode(NetID.self, "driver_net_id"),
            vanID: try row.decode(Int64.self, "van_id"), vanName: try row.decode(String.self, "name"),
            startedAt: try row.decode(Date.self, "started_at"), endedAt: try row.decode(Date?.self, "ended_at"),
            endedBy: try row.decode(String?.self, "ended_by")
        )
    }
}
