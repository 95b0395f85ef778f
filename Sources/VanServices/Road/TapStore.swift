import Foundation
import VanDomain
import VanPostgres

/// The one place that knows the `stop_taps` table.
struct TapStore {
    let connection: PGConnection
    /// How long after its recording a tap may be undone (to fill ``StopTap/undoUntil``).
    let undoWindow: TimeInterval

    init(_ connection: PGConnection, undoWindow: TimeInterval) {
        self.connection = connection
        self.undoWindow = undoWindow
    }

    static let columns: SQLQuery = "t.id, t.tap_key, t.shift_id, t.ride_id, t.stop, t.action, t.at, t.lat, t.lon, t.accuracy_m, t.undone_at"

    /// The tap with the client's key, with its shift's driver.
    func tap(key: UUID) throws -> (tap: StopTap, driver: NetID)? {
        try connection.query(
            """
            SELECT \(Self.columns), s.driver_net_id FROM stop_taps t JOIN shifts s ON s.id = t.shift_id WHERE t.tap_key = \(key)
            """
        ).first.map { (try tap($0), try $0.decode(NetID.self, "driver_net_id")) }
    }

    /// The taps standing for `rideID`, oldest first.
    func standing(rideID: UUID) throws -> [StopTap] {
        try connection.query("SELECT \(Self.columns) FROM stop_taps t WHERE t.ride_id = \(rideID) AND t.undone_at IS NULL ORDER BY t.at, t.id")
            .map(tap)
    }

    /// The taps standing for any of `rideIDs`, oldest first.
    func standing(rideIDs: [UUID]) throws -> [StopTap] {
        guard !rideIDs.isEmpty else { return [] }
        let array = rideIDs.postgresArrayLiteral
        return try connection.query(
            """
            SELECT \(Self.columns) FROM stop_taps t WHERE t.ride_id = ANY(\(array)::uuid[]) AND t.undone_at IS NULL ORDER BY t.at, t.id
            """
        ).map(tap)
    }

    /// Records a tap; nil when its key was taken meanwhile (by a request that committed first).
    func insert(_ request: TapRequest, shiftID: Int64, now: Date) throws -> StopTap? {
        let fix = request.position
        return try connection.query(
            """
            INSERT INTO stop_taps AS t (tap_key, shift_id, ride_id, stop, action, at, lat, lon, accuracy_m)
            VALUES (\(request.tapKey), \(shiftID), \(request.rideID), \(request.stop.rawValue), \(request.action.rawValue), \(now),
                    \(fix?.coordinate.latitude), \(fix?.coordinate.longitude), \(fix?.accuracyMeters))
            ON CONFLICT (tap_key) DO NOTHING
            RETURNING \(Self.columns)
            """
        ).first.map(tap)
    }

    /// Marks the tap `id` undone at `now`.
    func undo(id: Int64, now: Date) throws -> StopTap {
        try connection.query("UPDATE stop_taps t SET undone_at = \(now) WHERE t.id = \(id) RETURNING \(Self.columns)").first.map(tap)!
    }

    func tap(_ row: PGRow) throws -> StopTap {
        guard let stop = StopKind(rawValue: try row.decode(String.self, "stop")),
            let action = TapAction(rawValue: try row.decode(String.self, "action"))
        else {
            throw PGError(kind: .decoding, message: "stop tap has an unknown stop or action")
        }
        let lat = try row.decode(Double?.self, "lat")
        let lon = try row.decode(Double?.self, "lon")
        let at = try row.decode(Date.self, "at")
        return StopTap(
            id: try row.decode(Int64.self, "id"), tapKey: try row.decode(UUID.self, "tap_key"), shiftID: try row.decode(Int64.self, "shift_id"),
            rideID: try row.decode(UUID.self, "ride_id"),
            stop: stop, action: action, at: at,
            coordinate: try lat.flatMap { lat in try lon.map { try Coordinate(latitude: lat, longitude: $0) } },
            accuracyMeters: try row.decode(Double?.self, "accuracy_m"), undoneAt: try row.decode(Date?.self, "undone_at"),
            undoUntil: at.addingTimeInterval(undoWindow)
        )
    }
}
