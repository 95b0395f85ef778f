import Foundation
import Hummingbird
import VanDomain
import VanServices
import VanScheduler

/// The rider's booking API (all need a login; booking also needs the whitelist):
/// - `POST /v1/rides` → 201 ride (or series) | 409 problem with the nearest free times
/// - `GET /v1/rides?scope=upcoming|past&limit=&after=` → a page of the rider's own rides
/// - `GET /v1/rides/{id}` → the ride, if it is the rider's (else 404)
/// - `POST /v1/rides/{id}/cancel` → the cancelled ride, `late` when within the late window
/// - `POST /v1/series/{id}/cancel` → every upcoming ride of the rider's series cancelled
struct RideRoutes: Sendable {
    let auth: RiderAuth
    let booking: BookingService
    let rides: RiderRides
    let settings: BookingSettings
    let clock: ServiceClock
    let time: any TimeSource
    let metrics: VandMetrics

    func register(on router: Router<AppRequestContext>) {
        let v1 = router.group("v1").add(middleware: auth.authenticator())
        v1.post("rides", use: create)
        v1.get("rides", use: list)
        v1.get("rides/:id", use: show)
        v1.post("rides/:id/cancel", use: cancel)
        v1.post("series/:id/cancel", use: cancelSeries)
    }

    // MARK: Booking

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try Self.session(context)
        let now = time.now
        // The whitelist check and the places in one round trip (a 403 still comes before any body error).
        let prepared = try await booking.requestContext(for: session.netID, today: LocalDate(containing: now, in: clock.timeZone))
        guard prepared.eligibility.isEligible else { throw auth.problem(.notEligible(until: prepared.eligibility.until)) }
        let raw = try await request.collectBody()
        let body = try Request.decodeJSON(BookRideRequest.self, from: raw)
        let (rides, seriesID) = try newRides(from: body, netID: session.netID, places: prepared.places, now: now)
        let clock = self.clock
        let render: @Sendable ([BookingOutcome]) throws -> StoredResponse = { outcomes in
            try Self.render(outcomes, seriesID: seriesID, requested: rides.map(\.pickupAt), clock: clock)
        }
        let stored: StoredResponse
        if let key = request.headers[.init("Idempotency-Key")!], !key.isEmpty {
            guard key.count <= 200 else { throw Problem.invalidFields([ValidationError(field: "Idempotency-Key", reason: "is longer than 200 characters")]) }
            do {
                stored = try await booking.bookSeries(rides, now: now, idempotencyKey: IdempotencyKey(netID: session.netID, key: key, body: raw), render: render)
            } catch let error as IdempotencyKeyReused {
                throw Problem(status: .unprocessableContent, slug: "idempotency-key-reused", title: "Idempotency-Key reused", detail: error.description)
            }
        } else {
            stored = try render(try await booking.bookSeries(rides, now: now))
        }
        if stored.status == 201 { metrics.bookingMade() } else if stored.status == 409 { metrics.bookingRefused(reason: Self.reason(in: stored)) }
        return Self.response(stored)
    }

    /// The `reason` member of a stored 409, for the refusal counter.
    static func reason(in stored: StoredResponse) -> String {
        let object = stored.body.data(using: .utf8).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        return object?["reason"] as? String ?? "series"
    }

    /// Validates the request (every problem at once, each naming its field) and builds the rides.
    private func newRides(from body: BookRideRequest, netID: NetID, places: [Place], now: Date) throws -> ([NewRide], UUID?) {
        let policy = settings.policy
        var problems: [ValidationError] = []
        func check(_ work: () throws -> Void) throws {
            do { try work() } catch let error as ValidationError { problems.append(error) }
        }
        var pickupAt = now.addingTimeInterval(policy.onDemandLead)
        if body.kind == .scheduled {
            if let text = body.pickupAt {
                try check { pickupAt = try clock.parse(text, field: "pickup_at") }
            } else {
                problems.append(ValidationError(field: "pickup_at", reason: "is required for a scheduled ride (or send kind \"on_demand\")"))
            }
        } else if body.repeat != nil {
            problems.append(ValidationError(field: "repeat", reason: "an on-demand ride cannot repeat; book a scheduled series"))
        }
        if problems.isEmpty { try check { try policy.checkPickupTime(pickupAt, now: now) } }
        let matcher = PlaceMatcher(places: places, policy: policy)
        var pickup = RideEndpoint(), dropoff = RideEndpoint()
        try check { pickup = try matcher.resolve(body.pickup.value, field: "pickup") }
        try check { dropoff = try matcher.resolve(body.dropoff.value, field: "dropoff") }
        try check { try policy.checkDetails(companions: body.companions, note: body.note) }
        var times = [pickupAt]
        var seriesID: UUID?
        if let rule = body.repeat, problems.isEmpty {
            try check {
                var weekdays = Set<Int>()
                for name in rule.weekdays { weekdays.insert(try Recurrence.weekday(named: name)) }
                let until = try LocalDate(rule.until, field: "repeat.until")
                if until.interval(in: clock.timeZone).end > now.addingTimeInterval(policy.seriesHorizon) {
                    throw ValidationError(field: "repeat.until", reason: "is more than \(Int(policy.seriesHorizon / 86_400)) days ahead")
                }
                times = try Recurrence(weekdays: weekdays, until: until).occurrences(startingAt: pickupAt, in: clock.timeZone)
                if times.isEmpty { throw ValidationError(field: "repeat", reason: "no chosen weekday falls between pickup_at and until") }
            }
            seriesID = .timeOrdered()
        }
        guard problems.isEmpty else { throw Problem.invalidFields(problems) }
        let status: RideStatus = settings.autoApprove ? .approved : .pending
        let note = body.note?.trimmingCharacters(in: .whitespacesAndNewlines)
        let rides = times.map { at in
            NewRide(netID: netID, kind: body.kind, pickup: pickup, dropoff: dropoff, pickupAt: at,
                    needsWheelchair: body.needsWheelchair, companions: body.companions,
                    note: note?.isEmpty == true ? nil : note, seriesID: seriesID, status: status)
        }
        return (rides, seriesID)
    }

    /// The answer for the outcomes: 201 with the ride or series, or 409 with suggestions.
    static func render(_ outcomes: [BookingOutcome], seriesID: UUID?, requested: [Date], clock: ServiceClock) throws -> StoredResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let seriesID else {
            switch outcomes[0] {
            case .booked(let ride):
                return StoredResponse(status: 201, body: String(decoding: try encoder.encode(RideView(ride, clock: clock)), as: UTF8.self))
            case .refused(let feasibility, let sentence):
                return StoredResponse(status: 409, body: String(decoding: try conflict(feasibility, sentence: sentence, requested: requested[0], clock: clock).encoded(), as: UTF8.self))
            }
        }
        var booked: [RideView] = []
        var conflicts: [SeriesView.Conflict] = []
        for (outcome, at) in zip(outcomes, requested) {
            switch outcome {
            case .booked(let ride): booked.append(RideView(ride, clock: clock))
            case .refused(let feasibility, let sentence):
                conflicts.append(SeriesView.Conflict(
                    requestedPickupAt: clock.format(at), reason: feasibility.reason?.code ?? "occupied", detail: sentence,
                    suggestions: feasibility.suggestions.map { SuggestionView($0, clock: clock) }))
            }
        }
        let view = SeriesView(seriesID: seriesID.uuidString.lowercased(), booked: booked, conflicts: conflicts)
        if booked.isEmpty {
            var problem = Problem(status: .conflict, slug: "series-conflicts", title: "No occurrence of the series is free",
                                  detail: "None of the \(requested.count) rides could be booked; see conflicts for other times.")
            problem.members["conflicts"] = .array(conflicts.map { conflict in
                .object(["requested_pickup_at": .string(conflict.requestedPickupAt), "reason": .string(conflict.reason),
                         "detail": .string(conflict.detail), "suggestions": .array(conflict.suggestions.map(\.json))])
            })
            return StoredResponse(status: 409, body: String(decoding: try problem.encoded(), as: UTF8.self))
        }
        return StoredResponse(status: 201, body: String(decoding: try encoder.encode(view), as: UTF8.self))
    }

    /// 409 for a taken time: the sentence, the reason, and the nearest times to book in one more call.
    static func conflict(_ feasibility: Feasibility, sentence: String, requested: Date, clock: ServiceClock) -> Problem {
        let reason = feasibility.reason?.code ?? "occupied"
        let titles = [
            "occupied": "The van is taken at that time", "outside_service_hours": "The van does not run at that time",
            "closed": "The van does not run that day", "no_wheelchair_van": "No van with a wheelchair position is in service",
            "no_active_van": "No van is in service",
        ]
        var problem = Problem(status: .conflict, slug: "slot-unavailable", title: titles[reason] ?? "That time is not available", detail: sentence)
        problem.members["reason"] = .string(reason)
        problem.members["requested_pickup_at"] = .string(clock.format(requested))
        let suggestions = feasibility.suggestions.map { SuggestionView($0, clock: clock) }
        problem.members["suggestions"] = .array(suggestions.map(\.json))
        if case .infeasible(_, let earlier, let later) = feasibility {
            problem.members["earlier"] = earlier.map { SuggestionView($0, clock: clock).json } ?? .null
            problem.members["later"] = later.map { SuggestionView($0, clock: clock).json } ?? .null
        }
        return problem
    }

    static func response(_ stored: StoredResponse) -> Response {
        var headers: HTTPFields = [.contentType: stored.status >= 400 ? "application/problem+json" : "application/json", .cacheControl: "no-store"]
        if stored.status == 201,
           let data = stored.body.data(using: .utf8),
           let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            if let id = object["id"] as? String { headers[.location] = "/v1/rides/\(id)" }
            else if let series = object["series_id"] as? String { headers[.location] = "/v1/rides?series=\(series)" }
        }
        return Response(status: HTTPResponse.Status(code: stored.status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: stored.body)))
    }

    // MARK: Reading and cancelling

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try Self.session(context)
        let query = request.uri.queryParameters
        var problems: [ValidationError] = []
        let scopeText = query["scope"].map(String.init) ?? "upcoming"
        let scope = RiderRides.Scope(rawValue: scopeText)
        if scope == nil { problems.append(ValidationError(field: "scope", reason: "must be upcoming or past")) }
        var limit = 20
        if let text = query["limit"] {
            if let value = Int(text), (1...100).contains(value) { limit = value } else { problems.append(ValidationError(field: "limit", reason: "must be 1 to 100")) }
        }
        guard problems.isEmpty, let scope else { throw Problem.invalidFields(problems) }
        let page: RiderRides.Page
        do {
            page = try await rides.list(session.netID, scope: scope, now: time.now, limit: limit, after: query["after"].map(String.init))
        } catch let error as ValidationError {
            throw Problem.invalidFields([error])
        }
        return try Self.json(RideList(rides: page.rides.map { RideView($0, clock: clock) }, next: page.next), request: request, context: context)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try Self.session(context)
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
              let ride = try await rides.find(id, for: session.netID) else { throw Self.noSuchRide() }
        return try Self.json(RideView(ride, clock: clock), request: request, context: context)
    }

    struct CancelView: Encodable {
        let ride: RideView
        let late: Bool
    }

    @Sendable func cancel(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try Self.session(context)
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw Self.noSuchRide() }
        do {
            let cancelled = try await rides.cancel(id, for: session.netID, now: time.now, lateWithin: settings.policy.lateCancellation)
            return try Self.json(CancelView(ride: RideView(cancelled.ride, clock: clock), late: cancelled.late), request: request, context: context)
        } catch let error as RiderRides.CancelError {
            switch error {
            case .notFound: throw Self.noSuchRide()
            case .afterPickup, .notCancellable:
                throw Problem(status: .conflict, slug: "not-cancellable", title: "The ride cannot be cancelled", detail: error.description)
            }
        }
    }

    struct SeriesCancelView: Encodable {
        let cancelled: Int
    }

    @Sendable func cancelSeries(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try Self.session(context)
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw Self.noSuchRide("series") }
        let count = try await rides.cancelSeries(id, for: session.netID, now: time.now, lateWithin: settings.policy.lateCancellation)
        guard count > 0 else { throw Self.noSuchRide("series with upcoming rides") }
        return try Self.json(SeriesCancelView(cancelled: count), request: request, context: context)
    }

    // MARK: Helpers

    private static func session(_ context: AppRequestContext) throws -> AuthenticatedSession {
        guard let session = context.session else { throw Problem.unauthorized(tokenGiven: false) }
        return session
    }

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
