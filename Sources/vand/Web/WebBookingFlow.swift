import Foundation
import Hummingbird
import VanDomain
import VanServices
import VanScheduler
import VanPostgres

/// The booking form's one path, for the rider's own pages (`/ride-now`, `/book`) and the
/// dispatcher's booking for a rider who phones (`/dispatch/book/{netid}`): the same reading of
/// the form (``WebBookingForm``), the same whitelist check, rules, ``BookingService`` call and
/// suggestions, and the same values for the form's fields. Each page only chooses its template,
/// its addresses and what follows a booking.
struct WebBookingFlow: Sendable {
    let pages: WebPages
    var actions: WebRiderActions { pages.actions }

    /// Why the form is shown again: not cleared to book, fields to fix, or a taken time.
    struct Trouble {
        var places: [Place]
        var eligibility: Eligibility?
        var errors: [WebBookingForm.FieldError] = []
        var conflict: (sentence: String, suggestions: [Suggestion])?
        /// The leg the conflict's suggestions are for, on a trip there and back.
        var leg: TripOutcome.Leg = .there
        var status: HTTPResponse.Status?
        /// Why the booking refused her under the no-show policy (``RiderSuspended/sentence(hotline:)``):
        /// nothing was booked.
        var suspended: String?
    }

    /// What sending the form came to.
    enum Result {
        /// Show the form again with what was typed (and why).
        case form(Trouble)
        /// One ride booked.
        case booked(Ride)
        /// A ride there and its way back booked.
        case trip(Ride, Ride)
        /// A weekly series: each occurrence's outcome.
        case series([BookingOutcome])
        /// The same form sent again after it booked: the ride it booked (nil: a series).
        case alreadyBooked(UUID?)
    }

    /// Books what `submitted` asks for `netID` (the form `sent`, CSRF checked), once per form key.
    /// `bookedBy` names a dispatcher booking for the rider (nil: the rider herself); `ownRideLinks`
    /// puts a link to the rider's ride in the way on an overlap (the rider's own pages).
    func submit(
        _ submitted: WebBookingForm, sent: WebForm, for netID: NetID, bookedBy: String? = nil,
        ownRideLinks: Bool = true
    ) async throws -> Result {
        let prepared = try await actions.bookingContext(netID)
        let places = prepared.places
        guard prepared.eligibility.isEligible else { return .form(Trouble(places: places, eligibility: prepared.eligibility)) }
        let checked: CheckedBooking
        do {
            checked = try actions.check(submitted.request, for: netID, places: places)
        } catch {
            return .form(Trouble(places: places, eligibility: prepared.eligibility, errors: submitted.fieldErrors(error)))
        }
        let outcomes: [BookingOutcome]
        let key = WebBookingForm.idempotencyKey(sent, netID: netID)
        if let trip = checked.trip {
            return try await submitTrip(
                trip, submitted, key: key, for: netID, bookedBy: bookedBy, trouble: Trouble(places: places, eligibility: prepared.eligibility))
        }
        do {
            if let key {
                switch try await actions.book(checked.rides, key: key, bookedBy: bookedBy, willCall: checked.willCall) {
                case .fresh(let fresh): outcomes = fresh
                case .replay(let first):
                    if first.outcome == .booked { return .alreadyBooked(first.rideID) }
                    let sentence = first.answer ?? "This form was sent already, and that time was not available. Choose another time."
                    return .form(Trouble(places: places, eligibility: prepared.eligibility, conflict: (sentence, [])))
                }
            } else {
                outcomes = try await actions.book(checked.rides, bookedBy: bookedBy, willCall: checked.willCall)
            }
        } catch let refusal as RiderSuspended {
            // Nothing was booked (nor the form's key kept): the form again, with the dates and the office's number.
            return .form(
                Trouble(places: places, eligibility: prepared.eligibility, status: .forbidden, suspended: refusal.sentence(hotline: pages.hotline)))
        }
        // The rider's kept pages (her API's ride list) go as soon as someone else books for her.
        if bookedBy != nil { actions.pages?.changed(netID) }
        guard checked.seriesID == nil else { return .series(outcomes) }
        switch outcomes[0] {
        case .booked(let ride):
            return .booked(ride)
        case .refused(let feasibility, let sentence):
            // Kept, so the same form sent again shows this refusal rather than booking.
            if let key { try await actions.recordAnswer(sentence, for: key) }
            return .form(Trouble(places: places, eligibility: prepared.eligibility, conflict: (sentence, feasibility.suggestions)))
        case .overlaps(let other):
            let sentence = outcomes[0].sentence(clock: ServiceTime(timeZone: actions.timeZone)) ?? ""
            if let key { try await actions.recordAnswer(sentence, for: key) }
            let error = WebBookingForm.FieldError(
                field: submitted.kind == .now ? "pickup" : "time", message: sentence,
                link: ownRideLinks ? WebRideRoutes.path(of: other) : nil)
            return .form(Trouble(places: places, eligibility: prepared.eligibility, errors: [error], status: .conflict))
        }
    }

    /// Books the ride there and its way back, both or neither; a refusal is the form again with
    /// the sentence and the nearest times for the leg that did not fit.
    private func submitTrip(
        _ trip: (there: NewRide, back: NewRide), _ submitted: WebBookingForm, key: IdempotencyKey?, for netID: NetID, bookedBy: String?,
        trouble: Trouble
    ) async throws -> Result {
        let outcome: TripOutcome
        do {
            switch try await actions.bookTrip(trip.there, trip.back, key: key, bookedBy: bookedBy) {
            case .fresh(let fresh): outcome = fresh
            case .replay(let first):
                if first.outcome == .booked { return .alreadyBooked(first.rideID) }
                var again = trouble
                again.conflict = (first.answer ?? "This form was sent already, and that time was not available. Choose another time.", [])
                return .form(again)
            }
        } catch let refusal as RiderSuspended {
            var refused = trouble
            refused.status = .forbidden
            refused.suspended = refusal.sentence(hotline: pages.hotline)
            return .form(refused)
        }
        if bookedBy != nil { actions.pages?.changed(netID) }
        let clock = ServiceTime(timeZone: actions.timeZone)
        let sentence = outcome.sentence(clock: clock) ?? ""
        if let key, outcome.refusalCode != nil { try await actions.recordAnswer(sentence, for: key) }
        var refused = trouble
        switch outcome {
        case .booked(let there, let back):
            return .trip(there, back)
        case .refused(let leg, .refused(let feasibility, _)):
            refused.conflict = (sentence, feasibility.suggestions)
            refused.leg = leg
        case .refused(let leg, _):
            refused.errors = [WebBookingForm.FieldError(field: leg == .there ? "time" : "return_time", message: sentence)]
            refused.status = .conflict
        case .backTooSoon(_, let suggestion):
            refused.conflict = (sentence, suggestion.map { [$0] } ?? [])
            refused.leg = .back
        }
        return .form(refused)
    }

    /// Fills `page` with the booking form's values: what was typed, the errors next to their
    /// fields, the places, companions, weekdays, dates and the promise window, and a taken
    /// time's sentence with its one-tap suggestions, each posting to `action`.
    func fill(_ page: inout WebPages.Page, _ submitted: WebBookingForm, trouble: Trouble, action: String) async throws {
        let now = actions.now
        let words = pages.words
        let errors = trouble.errors
        page.values.merge(
            WebPages.formValues(submitted.values, errors: errors, targets: ["repeat_days": "day-\(WebBookingRoutes.weekdays[0].value)"])
        ) { $1 }
        if !errors.isEmpty {
            page.title = "Error: " + page.title
            page.status = trouble.status ?? .unprocessableContent
        }
        if let eligibility = trouble.eligibility, !eligibility.isEligible {
            page.status = .forbidden
            page.values["notEligible"] = true
            page.values["eligibleUntil"] = eligibility.until?.description
        }
        page.values["bookAction"] = action
        page.values["places"] = trouble.places.map { place -> [String: String] in
            ["name": place.name, "aliases": place.aliases.joined(separator: ", ")]
        }
        page.values["wheelchair"] = submitted.wheelchair
        page.values["willCall"] = submitted.willCall
        page.values["willCallWait"] = String(Int(actions.settings.policy.willCallMaxWait / 60))
        page.values["arriveBy"] = submitted.arriveBy
        page.values["companionOptions"] = (0...actions.settings.policy.maxCompanions).map { count -> [String: Any] in
            let label = count == 0 ? "None" : String(count)
            return ["value": String(count), "label": label, "selected": submitted.companions == String(count)]
        }
        let lead = now.addingTimeInterval(actions.settings.policy.onDemandLead)
        page.values["pickupWords"] = words.words(lead, now: now)
        let window = try await actions.promiseWindow()
        page.values["windowEnd"] = words.time(lead.addingTimeInterval(window))
        page.values["windowMinutes"] = String(Int(window / 60))
        page.values["minDate"] = words.formFields(now).date
        page.values["maxDate"] = words.formFields(now.addingTimeInterval(actions.settings.policy.horizon)).date
        page.values["repeat"] = submitted.repeats
        page.values["weekdays"] = WebBookingRoutes.weekdays.map { day -> [String: Any] in
            ["value": day.value, "label": day.label, "checked": submitted.repeatDays.contains(day.value)]
        }
        page.values["formKey"] = WebBookingForm.newFormKey()
        if let suspended = trouble.suspended {
            page.status = trouble.status ?? .forbidden
            page.title = "Suspended: " + page.title
            page.values["suspended"] = suspended
        }
        if let (sentence, suggestions) = trouble.conflict {
            page.status = .conflict
            page.title = "Time taken: " + page.title
            page.values["conflict"] =
                ["sentence": sentence, "suggestions": self.suggestions(submitted, suggestions, leg: trouble.leg)] as [String: Any]
        }
    }

    /// Each suggested time as a one-tap form's values: the same request at that time.
    func suggestions(_ submitted: WebBookingForm, _ suggestions: [Suggestion], leg: TripOutcome.Leg = .there) -> [[String: Any]] {
        let now = actions.now
        return suggestions.map { suggestion in
            suggestionForm(
                submitted.at(suggestion.asked, timeZone: actions.timeZone, leg: leg),
                label: (leg == .back ? "with the way back " : "") + pages.words.words(suggestion.asked, now: now))
        }
    }

    /// A one-tap form that books the same ride at a suggested time.
    private func suggestionForm(_ form: WebBookingForm, label: String) -> [String: Any] {
        var hidden = form.values.filter { !$0.value.isEmpty && $0.key != "repeat_until" }.sorted { $0.key < $1.key }.map {
            ["name": $0.key, "value": $0.value]
        }
        if form.wheelchair { hidden.append(["name": "wheelchair", "value": "yes"]) }
        if form.willCall { hidden.append(["name": "will_call", "value": "yes"]) }
        hidden.append(["name": WebBookingForm.formKeyField, "value": WebBookingForm.newFormKey()])
        return ["label": label, "hidden": hidden]
    }
}
