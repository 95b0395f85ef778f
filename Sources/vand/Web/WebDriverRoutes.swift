import Foundation
import Hummingbird
import NIOCore
import VanDomain
import VanServices

/// The driver's pages at `/driver`: choose a van and start the shift; the run (the next stop
/// large with its taps, later stops, done stops); undo; end the shift. Every tap is a plain form
/// (CSRF token and a tap key, so a double submit or a retried POST applies once) and works with
/// JavaScript off; `driver.js` sends the same forms in the background, shares the van's position
/// (`POST /driver/positions`) and redraws the run from `GET /driver/run`.
struct WebDriverRoutes: Sendable {
    let pages: WebPages
    let driver: WebDriverActions

    /// Largest position body read (one fix is under 100 bytes).
    static let maxPositionBody = 1024

    func register(drivers group: RouterGroup<AppRequestContext>) {
        group.get("driver", use: home)
        group.get("driver/run", use: runPart)
        group.post("driver/shift", use: startShift)
        group.get("driver/end", use: confirmEnd)
        group.post("driver/shift/end", use: endShift)
        group.post("driver/taps", use: tap)
        group.post("driver/undo", use: undo)
        group.post("driver/positions", use: position)
    }

    var view: WebDriverView { WebDriverView(words: pages.words, now: driver.now, noShowWait: driver.settings.noShowWait) }

    // MARK: Pages

    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let query = request.uri.queryParameters
        guard let run = try await openRun(session.netID) else {
            return try await startPage(request, context, flash: query["done"] == "ended" ? "Your shift is ended. Thank you!" : nil)
        }
        var undone: WebDriverView.Undone?
        if let action = query["undone"].flatMap({ TapAction(rawValue: String($0)) }),
            let ride = query["ride"].flatMap({ UUID(uuidString: String($0)) }),
            let stop = query["stop"].flatMap({ StopKind(rawValue: String($0)) })
        {
            undone = .init(rideID: ride, stop: stop, action: action)
        }
        return try await runPage(request, context, run: run, undone: undone)
    }

    /// The run alone (no layout), for `driver.js` to redraw the page in place.
    @Sendable func runPart(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        guard let run = try await openRun(session.netID) else { throw WebAnswer.redirect("/driver") }
        let values = view.run(run, csrf: WebSession.csrfToken(request) ?? "")
        return pages.html(pages.assets.render("driver-run", values), status: .ok, cookies: [])
    }

    @Sendable func confirmEnd(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        guard let run = try await openRun(session.netID) else { throw WebAnswer.redirect("/driver") }
        var page = page("driver-end", title: "End your shift?")
        let left = run.remaining.count
        page.values = ["vanName": run.shift.vanName, "shiftStarted": pages.words.words(run.shift.startedAt, now: driver.now)]
        if left > 0 { page.values["remaining"] = left == 1 ? "1 stop" : "\(left) stops" }
        return try await pages.render(page, request: request, context: context)
    }

    // MARK: Shifts

    @Sendable func startShift(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let form = try await pages.form(request)
        guard let vanID = Int64(form["van"]) else {
            return try await startPage(request, context, error: "Choose the van you are driving", status: .unprocessableContent)
        }
        do {
            _ = try await driver.start(session.netID, vanID: vanID)
        } catch let error as RoadError {
            switch error {
            case .driverHasShift:
                break  // already on a shift (a second tap of Start): her run
            case .vanHasShift(let van):
                return try await startPage(
                    request, context, error: "\(van) already has a driver on shift. Choose another van", chosen: nil, status: .conflict)
            case .unknownVan:
                return try await startPage(request, context, error: "That van is not in service any more. Choose another van", status: .conflict)
            default:
                throw error
            }
        }
        throw WebAnswer.redirect("/driver")
    }

    @Sendable func endShift(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        _ = try await pages.form(request)
        do {
            _ = try await driver.end(session.netID)
        } catch RoadError.noOpenShift {
            // Ended already (a second tap, or by the dispatcher): the same page.
        }
        throw WebAnswer.redirect("/driver?done=ended")
    }

    // MARK: Taps

    @Sendable func tap(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let form = try await pages.form(request)
        guard let key = UUID(uuidString: form["key"]), let ride = UUID(uuidString: form["ride"]),
            let stop = StopKind(rawValue: form["stop"]), let action = TapAction(rawValue: form["action"])
        else {
            return try await refused(
                request, context,
                .init(rideID: nil, stop: nil, sentence: "This tap could not be read, so nothing was recorded. Tap the button again."),
                status: .unprocessableContent)
        }
        let tap = TapRequest(tapKey: key, rideID: ride, stop: stop, action: action, position: Self.position(form))
        do {
            _ = try await driver.tap(tap, by: session.netID)
        } catch let error as RoadError {
            if error == .noOpenShift { throw WebAnswer.redirect("/driver") }
            return try await refused(request, context, .init(rideID: ride, stop: stop, sentence: view.refusalSentence(error)), status: .conflict)
        }
        // Applied, a double tap or a retry: the run shows the tap that stands, with its undo.
        throw WebAnswer.redirect("/driver")
    }

    @Sendable func undo(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let form = try await pages.form(request)
        guard let key = UUID(uuidString: form["tap"]) else {
            return try await refused(
                request, context, .init(rideID: nil, stop: nil, sentence: "This undo could not be read, so nothing changed."),
                status: .unprocessableContent)
        }
        let undone: StopTap
        do {
            undone = try await driver.undo(key, by: session.netID)
        } catch let error as RoadError {
            if error == .noOpenShift { throw WebAnswer.redirect("/driver") }
            return try await refused(request, context, .init(rideID: nil, stop: nil, sentence: view.refusalSentence(error)), status: .conflict)
        }
        throw WebAnswer.redirect(
            "/driver?undone=\(undone.action.rawValue)&ride=\(undone.rideID.uuidString.lowercased())&stop=\(undone.stop.rawValue)")
    }

    /// A tap's position fields (filled by `driver.js`); absent or out of range: none (the tap counts
    /// more than where it was made).
    static func position(_ form: WebForm) -> PositionFix? {
        guard let lat = Double(form["lat"]), let lon = Double(form["lon"]) else { return nil }
        return try? PositionFix(lat: lat, lon: lon, accuracyMeters: Double(form["accuracy"]))
    }

    // MARK: Positions

    /// `{"lat": …, "lon": …, "accuracy_m": …}` from the page's script: the cookie session and the
    /// CSRF token in `X-CSRF-Token` (a script cannot send the HttpOnly session as a bearer token).
    @Sendable func position(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        guard WebSession.checkCSRF(request.headers[.init(Self.csrfHeader)!] ?? "", request: request) else {
            throw WebErrorPage(status: .forbidden, title: "This request has expired", detail: "Reload the page to share the van's position again.")
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.maxPositionBody)
        } catch is NIOTooManyBytesError {
            throw WebErrorPage(status: .contentTooLarge, title: "Too long", detail: "A position is three numbers.")
        }
        struct Body: Decodable {
            let lat: Double
            let lon: Double
            let accuracy: Double?
            enum CodingKeys: String, CodingKey { case lat, lon, accuracy = "accuracy_m" }
        }
        guard let body = try? JSONDecoder().decode(Body.self, from: Data(buffer.readableBytesView)) else {
            throw WebErrorPage(status: .unprocessableContent, title: "Not a position", detail: "Send {\"lat\": …, \"lon\": …, \"accuracy_m\": …}.")
        }
        let fix: PositionFix
        do throws(ValidationError) {
            fix = try PositionFix(lat: body.lat, lon: body.lon, accuracyMeters: body.accuracy)
        } catch {
            throw WebErrorPage(status: .unprocessableContent, title: "Not a position", detail: WebDriverView.sentence(error.description))
        }
        try await driver.position(fix, by: session.netID)
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    /// The header `driver.js` sends the CSRF token in.
    static let csrfHeader = "X-CSRF-Token"

    // MARK: Helpers

    private func openRun(_ driverID: NetID) async throws -> DriverRun? {
        do {
            return try await driver.run(driverID)
        } catch RoadError.noOpenShift {
            return nil
        }
    }

    private func page(_ template: String, title: String, status: HTTPResponse.Status = .ok) -> WebPages.Page {
        var page = WebPages.Page(template: template, title: title, status: status, nav: "driver", scripts: ["driver.js"])
        page.styles = AccountRole.driver.webStyles
        return page
    }

    private func runPage(
        _ request: Request, _ context: AppRequestContext, run: DriverRun, refusal: WebDriverView.Refusal? = nil,
        undone: WebDriverView.Undone? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var page = page("driver", title: refusal == nil ? "Today's run" : "Not recorded: today's run", status: status)
        page.values = view.run(run, csrf: WebSession.csrfToken(request) ?? "", refusal: refusal, undone: undone)
        page.values["vanName"] = run.shift.vanName
        page.values["shiftStarted"] = pages.words.words(run.shift.startedAt, now: driver.now)
        return try await pages.render(page, request: request, context: context)
    }

    /// The run as it stands, with the refusal by the action it refused.
    private func refused(_ request: Request, _ context: AppRequestContext, _ refusal: WebDriverView.Refusal, status: HTTPResponse.Status) async throws
        -> Response
    {
        let session = try WebPages.session(context)
        guard let run = try await openRun(session.netID) else {
            // Her shift ended (by her, or by the dispatcher) while the page was open: the start
            // page says what was not recorded, and why.
            return try await startPage(request, context, status: status, flash: "Not recorded: " + refusal.sentence)
        }
        return try await runPage(request, context, run: run, refusal: refusal, status: status)
    }

    private func startPage(
        _ request: Request, _ context: AppRequestContext, error: String? = nil, chosen: Int64? = nil,
        status: HTTPResponse.Status = .ok, flash: String? = nil
    ) async throws -> Response {
        let vans = try await driver.freeVans()
        var page = page("driver-start", title: (error == nil ? "" : "Error: ") + "Start your shift", status: status)
        page.values = WebPages.formValues(
            ["van": chosen.map(String.init) ?? ""],
            errors: error.map { [.init(field: "van", message: $0)] } ?? [],
            targets: ["van": vans.first.map { "van-\($0.id)" } ?? "van"])
        page.values["vans"] = vans.map { van -> [String: Any] in
            let wheelchair =
                van.wheelchairPositions == 0
                ? "no wheelchair position"
                : van.wheelchairPositions == 1 ? "1 wheelchair position" : "\(van.wheelchairPositions) wheelchair positions"
            return ["id": String(van.id), "name": van.name, "seats": "\(van.seats) seats, \(wheelchair)", "chosen": van.id == chosen]
        }
        page.values["hasVans"] = !vans.isEmpty
        page.values["flash"] = flash
        return try await pages.render(page, request: request, context: context)
    }
}
