import Foundation
import Hummingbird
import VanDomain
import VanServices

/// The day board (`/dispatch/board?day=…&van=…`: the fleet's summary over a day, and the
/// chosen van's route stop by stop), a ride found by its
/// reference as spoken (`/dispatch/find`), and the ride's page with its move form
/// (`/dispatch/rides/{ref}`, moved with `vanadmin rides move`'s checks; the ride's id names it
/// there too, as it does for `vanadmin`). `dispatch-board.js`
/// redraws the board from `/dispatch/board/part` on the console's stream events.
struct WebDispatchBoardRoutes: Sendable {
    let console: WebDispatchRoutes

    func register(_ group: RouterGroup<AppRequestContext>) {
        group.get("dispatch/board", use: board)
        group.get("dispatch/board/part", use: boardPart)
        group.get("dispatch/find", use: find)
        group.get("dispatch/rides/:ref", use: ride)
        group.post("dispatch/rides/:ref/move", use: move)
        group.post("dispatch/rides/:ref/unpin", use: unpin)
        group.post("dispatch/rides/:ref/cancel", use: cancel)
        group.post("dispatch/rides/:ref/ready", use: ready)
    }

    private var actions: WebDispatchActions { console.dispatch }
    private var view: WebDispatchBoardView { WebDispatchBoardView(timeZone: actions.timeZone, now: actions.now) }

    // MARK: The board

    @Sendable func board(_ request: Request, context: AppRequestContext) async throws -> Response {
        let text = request.uri.queryParameters["day"].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        guard let day = text.isEmpty ? actions.today : try? LocalDate(text) else {
            return try await boardPage(
                request, context, day: actions.today, dayText: text, status: .unprocessableContent,
                errors: [.init(field: "day", message: "Enter the day as a date, like \(actions.today.description)")])
        }
        return try await boardPage(request, context, day: day, van: Self.van(request))
    }

    /// The `van` query: nil when absent or empty, -1 (no van) when it is not a van's id.
    static func van(_ request: Request) -> Int64? {
        guard let text = request.uri.queryParameters["van"], !text.isEmpty else { return nil }
        return Int64(String(text.prefix(20))) ?? -1
    }

    /// The page of the van's stops asked for (`page=N` or `ride=REF`).
    static func stopPage(_ request: Request) -> DayBoard.StopPage {
        let query = request.uri.queryParameters
        return WebDispatchBoardView.stopPage(page: query["page"], ride: query["ride"])
    }

    /// The board's tables alone (no layout), for `dispatch-board.js` to redraw in place.
    @Sendable func boardPart(_ request: Request, context: AppRequestContext) async throws -> Response {
        let text = request.uri.queryParameters["day"].map(String.init) ?? ""
        guard let day = text.isEmpty ? actions.today : try? LocalDate(text) else {
            throw WebErrorPage(
                status: .unprocessableContent, title: "No such day", detail: "Give the day as a date, like \(actions.today.description).")
        }
        let van = Self.van(request)
        let values = WebDispatchBoardView.merge(
            WebDispatchBoardView.merge(
                view.board(try await actions.board(day, van: van, page: Self.stopPage(request)), van: van),
                view.denials(try await actions.denials(day))),
            try await willCalls(day, van: van))
        if values["missingVan"] != nil {
            throw WebErrorPage.notFound("No such van", detail: "That van has no route on this day. Choose a van on the day board.")
        }
        return console.pages.html(console.pages.assets.render("dispatch-board-part", values), status: .ok, cookies: [])
    }

    /// Finds a ride by its reference as typed (or its id): a good one goes to the ride's page; a malformed
    /// or unknown one is the board again with the message by the field and the input kept.
    @Sendable func find(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        // A GET form sends a space as "+" (form encoding), which the query parameters keep.
        let typed = String((query["ref"].map(String.init) ?? "").replacingOccurrences(of: "+", with: " ").prefix(40))
        let day = query["day"].flatMap { try? LocalDate(String($0)) } ?? actions.today
        // A reference, or a ride's id (pasted from a log or `vanadmin --json`), as vanadmin finds them.
        let trimmed = typed.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, let ride = try await actions.ride(trimmed) { throw WebAnswer.redirect(Self.ridePath(ride.ref)) }
        let (message, status) = Self.notFound(typed)
        return try await boardPage(
            request, context, day: day, refText: typed, status: status,
            errors: [.init(field: "ref", message: message)])
    }

    private func boardPage(
        _ request: Request, _ context: AppRequestContext, day: LocalDate, van: Int64? = nil, dayText: String? = nil,
        refText: String = "", status: HTTPResponse.Status = .ok, errors: [WebBookingForm.FieldError] = []
    ) async throws -> Response {
        let board = try await actions.board(day, van: van, page: Self.stopPage(request))
        let values = WebDispatchBoardView.merge(
            WebDispatchBoardView.merge(view.board(board, van: van), view.denials(try await actions.denials(day))),
            try await willCalls(day, van: van))
        let heading = day == actions.today ? "Day board: today" : "Day board"
        var page = console.page(
            "dispatch-board", title: (errors.isEmpty ? "" : "Error: ") + heading + ", " + Self.dayWords(day),
            nav: "board", styles: ["dispatch-board.css"], scripts: ["dispatch-live.js", "dispatch-board.js"])
        // A van not on this day's board: the summary to choose from, answered 404.
        page.status = values["missingVan"] != nil && status == .ok ? .notFound : status
        page.values = WebDispatchBoardView.merge(values, WebPages.formValues(["day": dayText ?? day.description, "ref": refText], errors: errors))
        page.values["dayWords"] = Self.dayWords(day)
        page.values["isToday"] = day == actions.today
        page.values["previous"] = LocalDate(dayNumber: day.dayNumber - 1).description
        page.values["next"] = LocalDate(dayNumber: day.dayNumber + 1).description
        page.values["previousWords"] = Self.dayWords(LocalDate(dayNumber: day.dayNumber - 1))
        page.values["nextWords"] = Self.dayWords(LocalDate(dayNumber: day.dayNumber + 1))
        return try await console.pages.render(page, request: request, context: context)
    }

    /// The board's "Will-calls open" (``WebDispatchBoardView/willCalls(_:day:)``): on the fleet's
    /// summary only, as they belong to no van (and a van's page of stops keeps its budget).
    private func willCalls(_ day: LocalDate, van: Int64?) async throws -> [String: Any] {
        guard van == nil else { return [:] }
        return view.willCalls(try await actions.openWillCalls(through: day), day: day)
    }

    /// "Sunday, November 29, 2026".
    static func dayWords(_ day: LocalDate) -> String {
        let names = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        return "\(names[(day.weekday - 1) % 7]), \(months[day.month - 1]) \(day.day), \(day.year)"
    }

    static func ridePath(_ ref: RideRef) -> String { "/dispatch/rides/\(ref.rawValue)" }

    // MARK: The ride

    @Sendable func ride(_ request: Request, context: AppRequestContext) async throws -> Response {
        let ref = try await ride(context).ref
        let flash: String? =
            switch request.uri.queryParameters["done"] {
            case "moved": "The ride is moved; the rider is told the new time."
            case "unpinned": "The planner may now move the ride to another van."
            case "cancelled": "The ride is cancelled; the rider is told."
            case "ready": "She is ready: this is her way back, booked now. Tell her its reference and when the van comes."
            case "ready-already": "She had said she was ready already: this is her way back."
            default: nil
            }
        return try await ridePage(request, context, ref: ref, flash: flash)
    }

    /// Lets the planner move the ride to another van again (a van named in a move keeps it there).
    @Sendable func unpin(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let ref = try await ride(context).ref
        _ = try await console.pages.form(request)  // the CSRF check
        _ = try await actions.unpin(ref, actor: try await actions.actor(session))
        throw WebAnswer.redirect(Self.ridePath(ref) + "?done=unpinned")
    }

    @Sendable func move(_ request: Request, context: AppRequestContext) async throws -> Response {
        let session = try WebPages.session(context)
        let current = try await ride(context), ref = current.ref
        let form = try await console.pages.form(request)
        let values = ["at": String(form["at"].prefix(40)), "van": String(form["van"].prefix(80))]
        func refuse(_ field: String, _ message: String, _ status: HTTPResponse.Status) async throws -> Response {
            try await ridePage(request, context, ref: ref, values: values, errors: [.init(field: field, message: message)], status: status)
        }
        let van = values["van"]!.isEmpty || values["van"] == current.vanName ? nil : values["van"]
        var time: Date?
        if !values["at"]!.isEmpty {
            do {
                time = try ServiceTime(timeZone: actions.timeZone).parse(values["at"]!, field: "at", sameDayAs: current.pickupAt)
            } catch {
                return try await refuse(
                    "at", "Enter the new time like 15:30 or 3:30 PM, or a day and time like 2026-11-30 15:30", .unprocessableContent)
            }
        }
        guard time != nil || van != nil else {
            return try await refuse("at", "Enter a new time, choose another van, or both", .unprocessableContent)
        }
        do {
            _ = try await actions.move(ref, at: time, van: van, actor: try await actions.actor(session))
        } catch let error as DispatchService.DispatchError {
            switch error {
            case .doesNotFit(let sentence): return try await refuse(time == nil ? "van" : "at", "It does not fit: " + sentence, .conflict)
            case .unknownVan: return try await refuse("van", "Choose one of the vans in the list", .unprocessableContent)
            case .underWay(let sentence): return try await refuse(van != nil ? "van" : "at", "This ride cannot be moved: " + sentence, .conflict)
            case .transition(let transition): return try await refuse("at", "This ride cannot be moved: \(transition.description)", .conflict)
            case .newTime(let reason): return try await refuse("at", "The new time \(reason)", .unprocessableContent)
            default: return try await refuse("at", error.description, .conflict)
            }
        } catch let error as ValidationError {
            return try await refuse("at", "The new time is not possible: " + error.reason, .unprocessableContent)
        }
        throw WebAnswer.redirect(Self.ridePath(ref) + "?done=moved")
    }

    func ridePage(
        _ request: Request, _ context: AppRequestContext, ref: RideRef, values: [String: String] = [:],
        errors: [WebBookingForm.FieldError] = [], status: HTTPResponse.Status = .ok, flash: String? = nil, problem: String? = nil
    ) async throws -> Response {
        guard let (listing, history, actuals) = try await actions.rideDetails(ref) else { throw Self.noRide(ref) }
        let vans = try await actions.vanNames()
        var page = console.page(
            "dispatch-ride", title: (errors.isEmpty ? "" : "Error: ") + "Ride \(ref.rawValue)", nav: "board",
            styles: ["dispatch-board.css"])
        page.status = status
        var form = values
        form["at"] = form["at"] ?? ""
        form["van"] = form["van"] ?? ""
        let rideView = WebDispatchRideView(view: view, now: actions.now)
        page.values = WebDispatchBoardView.merge(
            WebDispatchBoardView.merge(
                rideView.ride(listing, history: history, actuals: actuals, vans: vans, chosenVan: form["van"]!),
                rideView.cancelForm(
                    listing, who: form["who"], lateWithin: actions.settings.policy.lateCancellation,
                    boarded: actuals.pickupOutcome == .boarded)),
            WebPages.formValues(form, errors: errors))
        page.values["flash"] = flash
        page.values["problem"] = problem
        let call = try await actions.willCall(of: listing.ride.id)
        let back = call?.state == .ready ? try await actions.rides.wayBack(of: listing.ride.id, for: listing.ride.netID) : nil
        page.values["willCall"] = rideView.willCall(call, there: listing.ride, back: back)
        if let by = try await actions.vanPinnedBy(listing.ride.id), listing.ride.status.holdsVan {
            page.values["pinnedBy"] = by
        }
        return try await console.pages.render(page, request: request, context: context)
    }

    /// Why the find field's text finds no ride: unknown (404), or not a reference (422).
    static func notFound(_ typed: String) -> (String, HTTPResponse.Status) {
        let trimmed = typed.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return ("Enter the ride's reference, like K7M-3QX", .unprocessableContent) }
        if let id = UUID(uuidString: trimmed) { return ("No ride has the id \(id.uuidString.lowercased()). Check it and try again", .notFound) }
        do {
            let ref = try RideRef(validating: typed)
            return ("No ride has the reference \(ref.rawValue). Check it with the rider and try again", .notFound)
        } catch {
            return ("That is not a ride reference: " + error.reason, .unprocessableContent)
        }
    }

    /// The ride the path names: by its reference, or by its id (a link from a log or `vanadmin --json`).
    func ride(_ context: AppRequestContext) async throws -> Ride {
        let text = context.parameters.get("ref") ?? ""
        guard let ride = try await actions.ride(text) else {
            let named = UUID(uuidString: text).map { "the id \($0.uuidString.lowercased())" } ?? "the reference \(text.prefix(40))"
            throw WebErrorPage.notFound("No such ride", detail: "No ride has \(named). Find the ride on the day board.")
        }
        return ride
    }

    static func noRide(_ ref: RideRef) -> WebErrorPage {
        WebErrorPage.notFound("No such ride", detail: "No ride has the reference \(ref.rawValue). Find the ride on the day board.")
    }
}
