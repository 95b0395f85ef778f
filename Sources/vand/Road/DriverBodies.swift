import Foundation
import VanDomain
import VanServices

/// `POST /v1/driver/shift` body: the van's id (from `GET /v1/driver/shift`'s `vans`).
struct ShiftStartRequest: Decodable {
    let van: Int64
}

/// A position in a request: `POST /v1/vans/{id}/positions`, and a tap's `position`.
struct PositionBody: Decodable {
    let lat: Double
    let lon: Double
    let accuracyM: Double?
    /// When the fix was taken (RFC 3339); absent: when it is received.
    let at: String?
    enum CodingKeys: String, CodingKey { case lat, lon, accuracyM = "accuracy_m", at }

    /// The fix, or a 422 naming the bad field.
    func fix(clock: ServiceTime) throws -> PositionFix {
        try PositionFix(lat: lat, lon: lon, accuracyMeters: accuracyM, at: try at.map { try clock.parse($0, field: "at") })
    }
}

/// `POST /v1/driver/taps` body.
struct TapBody: Decodable {
    let tapKey: UUID
    let rideID: UUID
    let stop: StopKind
    let action: TapAction
    let position: PositionBody?
    enum CodingKeys: String, CodingKey { case tapKey = "tap_key", rideID = "ride_id", stop, action, position }

    func request(clock: ServiceTime) throws -> TapRequest {
        TapRequest(tapKey: tapKey, rideID: rideID, stop: stop, action: action, position: try position?.fix(clock: clock))
    }
}

/// A shift as the API shows it.
struct ShiftView: Encodable {
    let id: Int64
    let van: VanRef
    let driver: String
    let startedAt: String
    let endedAt: String?
    enum CodingKeys: String, CodingKey { case id, van, driver, startedAt = "started_at", endedAt = "ended_at" }

    init(_ shift: Shift, clock: ServiceTime) {
        id = shift.id
        van = VanRef(id: shift.vanID, name: shift.vanName)
        driver = shift.driverNetID.rawValue
        startedAt = clock.format(shift.startedAt)
        endedAt = shift.endedAt.map(clock.format)
    }
}

/// A van by id and name.
struct VanRef: Encodable {
    let id: Int64
    let name: String
}

/// `GET /v1/driver/shift` answer: the open shift (or null) and the vans to start one on.
struct ShiftState: Encodable {
    let shift: ShiftView?
    let vans: [VanChoice]

    struct VanChoice: Encodable {
        let id: Int64
        let name: String
        /// Whether another driver is on shift on it.
        let taken: Bool
    }
}

/// A tap as the API shows it.
struct TapView: Encodable {
    /// Ids in lower case, as every id the API writes.
    let tapKey: String
    let rideID: String
    let stop: StopKind
    let action: TapAction
    let at: String
    let lat: Double?
    let lon: Double?
    let undoneAt: String?
    let undoUntil: String
    enum CodingKeys: String, CodingKey {
        case tapKey = "tap_key", rideID = "ride_id", stop, action, at, lat, lon, undoneAt = "undone_at", undoUntil = "undo_until"
    }

    init(_ tap: StopTap, clock: ServiceTime) {
        tapKey = tap.tapKey.uuidString.lowercased()
        rideID = tap.rideID.uuidString.lowercased()
        stop = tap.stop
        action = tap.action
        at = clock.format(tap.at)
        lat = tap.coordinate?.latitude
        lon = tap.coordinate?.longitude
        undoneAt = tap.undoneAt.map(clock.format)
        undoUntil = clock.format(tap.undoUntil)
    }
}

/// `POST /v1/driver/taps` answer.
struct TapAnswer: Encodable {
    let outcome: String
    let tap: TapView
    let rideStatus: RideStatus
    enum CodingKeys: String, CodingKey { case outcome, tap, rideStatus = "ride_status" }
}

/// `GET /v1/driver/run` answer.
struct RunView: Encodable {
    let shift: ShiftView
    let day: String
    let stops: [StopView]
    /// When to leave for the next stop, waiting empty until then (``DriverRun/leaveAt``); absent: go now.
    let leaveAt: String?

    enum CodingKeys: String, CodingKey { case shift, day, stops, leaveAt = "leave_at" }

    init(_ run: DriverRun, clock: ServiceTime) {
        shift = ShiftView(run.shift, clock: clock)
        day = run.day.description
        stops = run.stops.map { StopView($0, clock: clock) }
        leaveAt = run.leaveAt.map(clock.format)
    }
}

/// One stop of the run.
struct StopView: Encodable {
    /// In lower case, as every id the API writes.
    let rideID: String
    let ref: String
    let rideStatus: RideStatus
    let stop: StopKind
    let place: String?
    let placeShort: String?
    let address: String?
    let lat: Double?
    let lon: Double?
    let rider: String
    let phone: String?
    let wheelchair: Bool
    let companions: Int
    let note: String?
    let promise: RidePromise.Kind
    let windowStart: String
    let windowEnd: String
    let plannedAt: String
    let arrivedAt: String?
    let departedAt: String?
    let outcome: TapAction?
    let noShowFrom: String?
    let lastTap: TapView?
    let done: Bool
    let nextActions: [TapAction]

    enum CodingKeys: String, CodingKey {
        case rideID = "ride_id", ref, rideStatus = "ride_status", stop, place, placeShort = "place_short", address, lat, lon, rider, phone,
            wheelchair, companions, note, promise, windowStart = "window_start", windowEnd = "window_end", plannedAt = "planned_at",
            arrivedAt = "arrived_at", departedAt = "departed_at", outcome, noShowFrom = "no_show_from", lastTap = "last_tap", done,
            nextActions = "next_actions"
    }

    init(_ stop: RunStop, clock: ServiceTime) {
        rideID = stop.rideID.uuidString.lowercased()
        ref = stop.ref.rawValue
        rideStatus = stop.rideStatus
        self.stop = stop.stop
        place = stop.placeName
        placeShort = stop.placeShort
        address = stop.address
        lat = stop.coordinate?.latitude
        lon = stop.coordinate?.longitude
        rider = stop.riderName
        phone = stop.riderPhone?.rawValue
        wheelchair = stop.wheelchair
        companions = stop.companions
        note = stop.note
        promise = stop.promise.kind
        windowStart = clock.format(stop.promise.window.start)
        windowEnd = clock.format(stop.promise.window.end)
        plannedAt = clock.format(stop.plannedAt)
        arrivedAt = stop.arrivedAt.map(clock.format)
        departedAt = stop.departedAt.map(clock.format)
        outcome = stop.outcome
        noShowFrom = stop.noShowAllowedFrom.map(clock.format)
        lastTap = stop.lastTap.map { TapView($0, clock: clock) }
        done = stop.isDone
        nextActions = stop.nextActions
    }
}
