import Foundation
import Hummingbird
import VanDomain
import VanServices
import VanScheduler

/// The rider's booking API (all need a login; booking also needs the whitelist):
/// - `POST /v1/rides` → 201 ride (or series) | 409 problem with the nearest free times
/// - `GET /v1/rides?scope=upcoming|past&limit=&after=` → a page of the rider's own rides
/// - `GET /v1/rides/{id}` → the ride, if it is the rider's (else 404); with `eta` while her van on
///   the road is on its way to her (``ETAService/rider(_:now:)``)
/// - `POST /v1/rides/{id}/cancel` → the cancelled ride, `late` when within the late window
/// - `POST /v1/rides/{id}/ready` → 201 her will-call way back, booked now | 200 booked already |
///   409 no van within the wait (her call stays open)
/// - `POST /v1/series/{id}/cancel` → every upcoming ride of the rider's series cancelled
///
/// The rest of a series' routes (show, edit, hold, resume) are ``SeriesRoutes``.
struct RideRoutes: Sendable {
    let auth: RiderAuth
    let booking: BookingService
    let rides: RiderRides
    let settings: BookingSettings
    let clock: ServiceTime
    let time: any TimeSource
    let metrics: VandMetrics
    /// Upcoming pages answered again from memory until the database notifies a change.
    let pages: RiderReadCache<ByteBuffer>
    /// Where her van is, for one ride's answer.
    let eta: ETAService

    func register(on router: Router<AppRequestContext>) {
        // The ride list checks its bearer token itself, in the statement that reads the page
        // (one round trip); it answers as the authenticator would.
        router.get("v1/rides", use: list)
        let v1 = router.group("v1").add(middleware: auth.authenticator(role: .rider))
        v1.post("rides", use: create)
        v1.get("rides/:id", use: show)
        v1.post("rides/:id/cancel", use: cancel)
        v1.post("rides/:id/ready", use: ready)
        v1.post("series/:id/cancel", use: cancelSeries)
    }

    // MARK: Booking

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let now = time.now
        // The whitelist check and the places in one round trip (a 403 still comes before any body error).
        let prepared = try await booking.requestContext(for: session.netID, today: LocalDate(containing: now, in: clock.timeZone))
        guard prepared.eligibility.isEligible else { throw AccountError.notEligible(until: prepared.eligibility.until) }
        let raw = try await request.collectBody()
        let body = try Request.decodeJSON(BookRideRequest.self, from: raw)
        let checked = try booking.check(body.request, for: session.netID, places: prepared.places, now: now)
        let (newRides, seriesID, requested) = (checked.rides, checked.seriesID, checked.requested)
        if let trip = checked.trip { return try await bookTrip(trip, request: request, raw: raw, session: session, now: now) }
        guard let keyText = request.headers[.init("Idempotency-Key")!], !keyText.isEmpty else {
            let outcomes = try await booking.bookSeries(newRides, now: now, willCall: checked.willCall)
            let answer = try BookingAnswer(outcomes, seriesID: seriesID, requested: requested, clock: clock, willCall: checked.willCall)
            metrics.record(answer)
            return answer.response
        }
        guard keyText.count <= 200 else { throw ValidationError(field: "Idempotency-Key", reason: "is longer than 200 characters") }
        let key = IdempotencyKey(netID: session.netID, key: keyText, body: raw)
        switch try await booking.bookSeries(newRides, now: now, idempotencyKey: key, willCall: checked.willCall) {
        case .fresh(let outcomes):
            // Rendered after the booking committed; kept so a retry gets the same words.
            let answer = try BookingAnswer(outcomes, seriesID: seriesID, requested: requested, clock: clock, willCall: checked.willCall)
            try await booking.recordAnswer(answer.text, for: key)
            metrics.record(answer)
            return answer.response
        case .replay(let remembered):
            if let answer = BookingAnswer(remembered) { return answer.response }
            // Booked, but the first answer is not recorded yet: the ride as it is now.
            if let id = remembered.rideID, let ride = try await rides.find(id, for: session.netID) {
                return try BookingAnswer(ride: ride, clock: clock).response
            }
            throw Problem(
                status: .conflict, slug: "idempotency-key-in-progress", title: "The first request is still being answered",
                detail: "The first request with this Idempotency-Key is still being answered. Try again in a few seconds.",
                headers: [.retryAfter: "2"])
        }
    }

    /// A ride there and its way back, both or neither (``BookingService/bookTrip(_:_:now:bookedBy:overrideSuspension:)``),
    /// under the request's Idempotency-Key when it has one.
    private func bookTrip(
        _ trip: (there: NewRide, back: NewRide), request: Request, raw: Data, session: AuthenticatedSession, now: Date
    ) async throws -> Response {
        guard let keyText = request.headers[.init("Idempotency-Key")!], !keyText.isEmpty else {
            let answer = try TripAnswer.make(
                try await booking.bookTrip(trip.there, trip.back, now: now), there: trip.there, back: trip.back, clock: clock)
            metrics.record(answer)
            return answer.response
        }
        guard keyText.count <= 200 else { throw ValidationError(field: "Idempotency-Key", reason: "is longer than 200 characters") }
        let key = IdempotencyKey(netID: session.netID, key: keyText, body: raw)
        switch try await booking.bookTrip(trip.there, trip.back, now: now, idempotencyKey: key) {
        case .fresh(let outcome):
            let answer = try TripAnswer.make(outcome, there: trip.there, back: trip.back, clock: clock)
            try await booking.recordAnswer(answer.text, for: key)
            metrics.record(answer)
            return answer.response
        case .replay(let remembered):
            if let answer = BookingAnswer(remembered) { return answer.response }
            throw Problem(
                status: .conflict, slug: "idempotency-key-in-progress", title: "The first request is still being answered",
                detail: "The first request with this Idempotency-Key is still being answered. Try again in a few seconds.",
                headers: [.retryAfter: "2"])
        }
    }

    /// "I'm ready": books her will-call way back now (``BookingService/ready(_:netID:actor:now:)``).
    @Sendable func ready(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw Self.noSuchRide() }
        let now = time.now
        switch try await booking.ready(id, netID: session.netID, actor: session.netID.rawValue, now: now) {
        case .booked(let back):
            return try BookingAnswer(ride: back, clock: clock).response
        case .already(let back):
            return Self.jsonBytes(capacity: 1024) { RideView(back, clock: clock).write(to: &$0) }
        case .refused(let outcome):
            throw Self.noVanWithinWait(outcome, wait: settings.policy.willCallMaxWait, now: now, clock: clock)
        }
    }

    /// 409 for "I'm ready" with no van free within the wait: nothing is booked and her call stays open.
    static func noVanWithinWait(_ outcome: BookingOutcome, wait: TimeInterval, now: Date, clock: ServiceTime) -> Problem {
        if case .overlaps(let other) = outcome { return BookingAnswer.overlap(other, requested: now, clock: clock) }
        var problem = Problem(
            status: .conflict, slug: "will-call-no-van", title: "No van can come for you yet",
            detail: "No van can pick you up within \(Int(wait / 60)) minutes. Your way back stays open: "
                + "say you are ready again in a few minutes, or call the office.")
        problem.members["reason"] = .string(outcome.refusalCode ?? "occupied")
        return problem
    }

    // MARK: Reading and cancelling

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let check = try auth.sessionCheck(request)
        let query = request.uri.queryParameters
        var problems: [ValidationError] = []
        let scopeText = query["scope"].map(String.init) ?? "upcoming"
        let scope = RiderRides.Scope(rawValue: scopeText)
        if scope == nil { problems.append(ValidationError(field: "scope", reason: "must be upcoming or past")) }
        var limit = 20
        if let text = query["limit"] {
            if let value = Int(text), (1...100).contains(value) {
                limit = value
            } else {
                problems.append(ValidationError(field: "limit", reason: "must be 1 to 100"))
            }
        }
        let after = query["after"].map(String.init)
        let cursorProblem = RiderRides.cursorProblem(after)
        guard problems.isEmpty, let scope, cursorProblem == nil else {
            // A 401 or 403 comes before a 422, as the authenticator orders them; the cursor
            // is judged only once the rest is valid.
            _ = try await auth.authenticate(check, role: .rider)
            if let cursorProblem, problems.isEmpty { throw cursorProblem }
            throw InvalidFields(problems)
        }
        // Only upcoming pages are kept: time only takes rides off them, at their first ride's pickup.
        let key = RiderReadCache<ByteBuffer>.PageKey(limit: limit, after: after)
        if scope == .upcoming {
            if let kept = pages.lookup(digest: check.digest, key: key, now: check.now) {
                metrics.readCache(hit: true)
                return Self.jsonResponse(kept.value)
            }
            metrics.readCache(hit: false)
        }
        let ticket = scope == .upcoming ? pages.ticket() : nil
        guard let (session, page) = try await rides.list(check, scope: scope, limit: limit, after: after) else {
            throw AccountError.notAuthenticated
        }
        _ = try session.requiringOwnPassword().requiring(.rider)
        let list = RideList(rides: page.rides.map { RideView($0, clock: clock) }, next: page.next)
        var json = JSONBytes(capacity: 600 * (list.rides.count + 1))
        list.write(to: &json)
        if let ticket {
            pages.store(
                session, key: key, value: json.buffer, bytes: json.buffer.readableBytes,
                validUntil: page.rides.first?.pickupAt, now: check.now, ticket: ticket)
        }
        return Self.jsonResponse(json.buffer)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
            let ride = try await rides.find(id, for: session.netID)
        else { throw Self.noSuchRide() }
        var view = RideView(ride, clock: clock)
        view.eta = try await eta.rider(ride, now: time.now).map { ETAView($0, clock: clock) }
        view.willCall = try await booking.willCall(of: ride.id, netID: session.netID).map { WillCallView($0, clock: clock) }
        return Self.jsonBytes(capacity: 1024) { view.write(to: &$0) }
    }

    struct CancelView: Encodable {
        let ride: RideView
        let late: Bool
        /// The way back, cancelled with it (`with_return`).
        let back: RideView?
        /// Its will-call way back, called off with it (`with_return`); absent when it had none open.
        let willCallClosed: Bool?

        enum CodingKeys: String, CodingKey { case ride, late, back = "return", willCallClosed = "will_call_closed" }
    }

    /// `POST /v1/rides/{id}/cancel`'s optional body: `{"with_return": true}` cancels the way back too.
    struct CancelBody: Decodable {
        var withReturn = false

        enum CodingKeys: String, CodingKey { case withReturn = "with_return" }

        init(from decoder: any Decoder) throws {
            withReturn = try decoder.container(keyedBy: CodingKeys.self).member(Bool.self, .withReturn) ?? false
        }
    }

    @Sendable func cancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw Self.noSuchRide() }
        let raw = try await request.collectBody()
        let body = raw.isEmpty ? nil : try Request.decodeJSON(CancelBody.self, from: raw)
        let cancelled = try await rides.cancel(
            id, for: session.netID, now: time.now, lateWithin: settings.policy.lateCancellation, withReturn: body?.withReturn ?? false)
        return try Self.json(
            CancelView(
                ride: RideView(cancelled.ride, clock: clock), late: cancelled.late, back: cancelled.returnRide.map { RideView($0, clock: clock) },
                willCallClosed: cancelled.willCallClosed ? true : nil),
            request: request, context: context)
    }

    struct SeriesCancelView: Encodable {
        let cancelled: Int
    }

    @Sendable func cancelSeries(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw Self.noSuchRide("series") }
        let count = try await rides.cancelSeries(id, for: session.netID, now: time.now, lateWithin: settings.policy.lateCancellation)
        guard count > 0 else { throw Self.noSuchRide("series with upcoming rides") }
        return try Self.json(SeriesCancelView(cancelled: count), request: request, context: context)
    }

    // MARK: Helpers

    /// 404 for a ride that does not exist or is someone else's: never confirm it exists.
    static func noSuchRide(_ what: String = "ride") -> Problem {
        Problem.notFound("There is no such \(what) among your rides.")
    }

    static func json(_ value: some Encodable, request: Request, context: AppRequestContext) throws -> Response {
        var response = try context.responseEncoder.encode(value, from: request, context: context)
        response.headers[.cacheControl] = "no-store"
        return response
    }
}
