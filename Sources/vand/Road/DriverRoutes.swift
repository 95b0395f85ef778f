import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The driver's API (a driver's session bearer; every other role gets 403):
/// - `GET /v1/driver/shift` → the open shift (or null) and the vans
/// - `POST /v1/driver/shift` {van} → 201 the shift; `DELETE /v1/driver/shift` → the ended shift
/// - `GET /v1/driver/run` → today's stops of the shift's van, in route order
/// - `POST /v1/driver/taps` {tap_key, ride_id, stop, action, position?} → 201 applied, 200 already done / retried
/// - `POST /v1/driver/taps/{key}/undo` → the undone tap (within the undo window, `RoadSettings.undoWindow`)
struct DriverRoutes: Sendable {
    let auth: RiderAuth
    let road: Road
    let vans: VanStore
    let clock: ServiceTime

    func register(on router: Router<AppRequestContext>) {
        let driver = router.group("v1/driver").add(middleware: auth.authenticator(role: .driver))
        driver.get("shift", use: shift)
        driver.post("shift", use: startShift)
        driver.delete("shift", use: endShift)
        driver.get("run", use: run)
        driver.post("taps", use: tap)
        driver.post("taps/:key/undo", use: undo)
    }

    @Sendable func shift(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        async let current = road.shifts.current(driver: session.netID)
        async let open = road.shifts.open()
        async let fleet = vans.list(includeRetired: false)
        let taken = Set(try await open.map(\.vanID))
        let state = ShiftState(
            shift: try await current.map { ShiftView($0, clock: clock) },
            vans: try await fleet.map { ShiftState.VanChoice(id: $0.id, name: $0.name, taken: taken.contains($0.id)) }
        )
        return try Self.json(state, status: .ok, request: request, context: context)
    }

    @Sendable func startShift(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let body = try await request.decodeJSON(ShiftStartRequest.self)
        let shift = try await road.shifts.start(driver: session.netID, vanID: body.van)
        return try Self.json(ShiftView(shift, clock: clock), status: .created, request: request, context: context)
    }

    @Sendable func endShift(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let shift = try await road.shifts.end(driver: session.netID)
        return try Self.json(ShiftView(shift, clock: clock), status: .ok, request: request, context: context)
    }

    @Sendable func run(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let run = try await road.runs.run(driver: session.netID)
        return try Self.json(RunView(run, clock: clock), status: .ok, request: request, context: context)
    }

    @Sendable func tap(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let body = try await request.decodeJSON(TapBody.self)
        let result = try await road.taps.tap(driver: session.netID, try body.request(clock: clock))
        let answer = TapAnswer(outcome: result.outcome.rawValue, tap: TapView(result.tap, clock: clock), rideStatus: result.rideStatus)
        return try Self.json(answer, status: result.outcome == .applied ? .created : .ok, request: request, context: context)
    }

    @Sendable func undo(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        guard let key = context.parameters.get("key").flatMap(UUID.init(uuidString:)) else {
            throw ValidationError(field: "key", reason: "must be the tap_key (a uuid) of one of your taps")
        }
        let tap = try await road.taps.undo(driver: session.netID, tapKey: key)
        return try Self.json(TapView(tap, clock: clock), status: .ok, request: request, context: context)
    }

    /// JSON with `status`; never cached (riders' names and phones, live state).
    static func json(_ value: some Encodable, status: HTTPResponse.Status, request: Request, context: AppRequestContext) throws -> Response {
        var response = try context.responseEncoder.encode(value, from: request, context: context)
        response.status = status
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
