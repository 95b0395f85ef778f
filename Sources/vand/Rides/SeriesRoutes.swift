import Foundation
import Hummingbird
import VanDomain
import VanServices

/// A rider's standing series (a rider sees only her own: another's is a 404):
/// - `GET /v1/series` → her series, newest first (pattern and template)
/// - `GET /v1/series/{id}` → the series: pattern, template, holds, closed days, every ride
/// - `POST /v1/series/{id}/edits/check` → 200 what the edit would do, date by date (nothing changes)
/// - `POST /v1/series/{id}/edits` → 200 the edit made | 409 `series-change-conflicts`, the dates anew, nothing changed
/// - `POST /v1/series/{id}/holds` `{"from", "to"}` → 201 the hold and the rides it cancelled
/// - `POST /v1/series/{id}/holds/{hold}/resume/check` → 200 what resuming would book (nothing changes)
/// - `POST /v1/series/{id}/holds/{hold}/resume` → 200 resumed | 409 `series-change-conflicts` | 409 `hold-not-open`
struct SeriesRoutes: Sendable {
    let auth: RiderAuth
    let series: SeriesService
    let clock: ServiceTime
    let time: any TimeSource

    func register(on router: Router<AppRequestContext>) {
        let v1 = router.group("v1").add(middleware: auth.authenticator(role: .rider))
        v1.get("series", use: list)
        v1.get("series/:id", use: show)
        v1.post("series/:id/edits/check", use: checkEdit)
        v1.post("series/:id/edits", use: applyEdit)
        v1.post("series/:id/holds", use: hold)
        v1.post("series/:id/holds/:hold/resume/check", use: checkResume)
        v1.post("series/:id/holds/:hold/resume", use: applyResume)
    }

    struct SeriesList: Encodable {
        let series: [StandingSeriesView]
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let all = try await series.list(for: session.netID)
        return try RideRoutes.json(SeriesList(series: all.map { StandingSeriesView($0, clock: clock) }), request: request, context: context)
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let now = time.now
        let detail = try await series.show(try Self.id(context), for: session.netID, now: now)
        return try RideRoutes.json(StandingSeriesView(detail, now: now, clock: clock), request: request, context: context)
    }

    @Sendable func checkEdit(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await edit(request, context: context, apply: false)
    }

    @Sendable func applyEdit(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await edit(request, context: context, apply: true)
    }

    private func edit(_ request: Request, context: AppRequestContext, apply: Bool) async throws -> Response {
        let session = try context.requireSession()
        let id = try Self.id(context)
        let body = try await request.decodeJSON(SeriesEditBody.self)
        let answer = try await series.edit(id, for: session.netID, body.request, apply: apply, now: time.now)
        return try self.answer(answer, apply: apply, request: request, context: context)
    }

    @Sendable func hold(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try context.requireSession()
        let id = try Self.id(context)
        let body = try await request.decodeJSON(SeriesHoldBody.self)
        let held = try await series.hold(id, for: session.netID, from: body.from, to: body.to, now: time.now)
        var response = try RideRoutes.json(SeriesHoldView(held, clock: clock), request: request, context: context)
        response.status = .created
        response.headers[.location] = "/v1/series/\(id.uuidString.lowercased())"
        return response
    }

    @Sendable func checkResume(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await resume(request, context: context, apply: false)
    }

    @Sendable func applyResume(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await resume(request, context: context, apply: true)
    }

    private func resume(_ request: Request, context: AppRequestContext, apply: Bool) async throws -> Response {
        let session = try context.requireSession()
        let id = try Self.id(context)
        guard let holdID = context.parameters.get("hold").flatMap({ Int64($0) }) else { throw Problem.notFound("The series has no such hold.") }
        let raw = try await request.collectBody(upTo: Request.maxAccountBody)
        let body = raw.isEmpty ? SeriesResumeBody() : try Request.decodeJSON(SeriesResumeBody.self, from: raw)
        let answer = try await series.resume(id, hold: holdID, for: session.netID, choices: body.choices, apply: apply, now: time.now)
        return try self.answer(answer, apply: apply, request: request, context: context)
    }

    /// 200 with the change (checked, or made); an apply that some date refused is a 409 with the dates anew.
    private func answer(_ answer: SeriesChangeAnswer, apply: Bool, request: Request, context: AppRequestContext) throws -> Response {
        let view = SeriesChangeView(answer, clock: clock)
        guard apply, !answer.applied else { return try RideRoutes.json(view, request: request, context: context) }
        let count = answer.conflicts.count
        var problem = Problem(
            status: .conflict, slug: "series-change-conflicts", title: "Some dates do not fit",
            detail: "\(count) date\(count == 1 ? " does" : "s do") not fit as asked, so nothing was changed. "
                + "Choose for each in choices (skip, keep, or a suggested time) and send the change again.")
        problem.members["dates"] = try JSONValue(encoding: view.dates)
        throw problem
    }

    /// The series id in the path; a malformed one is a 404, as an unknown one is.
    static func id(_ context: AppRequestContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else {
            throw Problem.notFound("There is no such series among your rides.")
        }
        return id
    }
}
