import Foundation
import VanDomain
import VanServices
import VanScheduler
import VanPostgres

/// The "Ride now" and "Book ahead" forms, read and checked with the same rules as
/// `POST /v1/rides` (BookingPolicy, PlaceMatcher, Recurrence), each problem tied to
/// the form field the rider must fix.
struct WebBookingForm: Sendable {
    enum Kind: String, Sendable { case now, ahead }

    /// The pickup window the app promises: design.md's W (15 minutes from the planned pickup).
    static let pickupWindow: TimeInterval = 15 * 60

    var kind: Kind
    var pickup = ""
    var pickupLat = ""
    var pickupLon = ""
    var dropoff = ""
    var date = ""
    var time = ""
    /// Whether `time` is when the rider must arrive (a drop-off window ending then) rather than the pickup.
    var arriveBy = false
    var wheelchair = false
    var companions = "0"
    var note = ""
    var repeats = false
    var repeatDays: [String] = []
    var repeatUntil = ""

    /// One problem, on one field.
    struct FieldError: Sendable, Equatable {
        let field: String
        let message: String
    }

    init(kind: Kind) { self.kind = kind }

    init(kind: Kind, form: WebForm) {
        self.kind = kind
        pickup = form["pickup"]
        pickupLat = form["pickup_lat"]
        pickupLon = form["pickup_lon"]
        dropoff = form["dropoff"]
        date = form["date"]
        time = form["time"]
        arriveBy = kind == .ahead && form["time_is"] == "arrive"
        wheelchair = form.isChecked("wheelchair")
        companions = form["companions"].isEmpty ? "0" : form["companions"]
        note = form["note"]
        repeats = form.isChecked("repeat")
        repeatDays = form.all("repeat_days")
        repeatUntil = form["repeat_until"]
    }

    static let labels = [
        "pickup": "Pick-up place", "dropoff": "Destination", "date": "Date", "time": "Time",
        "companions": "Companions", "note": "Note for the driver", "repeat_days": "Repeat on", "repeat_until": "Repeat until",
    ]

    /// The rides to book (one, or a weekly series with its id), or every problem found.
    func rides(netID: NetID, places: [Place], policy: BookingPolicy, autoApprove: Bool, timeZone: TimeZone, now: Date)
        -> Result<(rides: [NewRide], seriesID: UUID?), FieldErrors>
    {
        var errors: [FieldError] = []
        func add(_ error: ValidationError, as field: String? = nil) {
            let name = field ?? Self.formField(for: error.field)
            guard !errors.contains(where: { $0.field == name }) else { return }
            errors.append(FieldError(field: name, message: Self.sentence(label: Self.labels[name] ?? name, reason: error.reason)))
        }
        let clock = ServiceTime(timeZone: timeZone)
        var pickupAt = now.addingTimeInterval(policy.onDemandLead)
        if kind == .ahead {
            if date.isEmpty { errors.append(FieldError(field: "date", message: "Enter the date of the ride")) }
            if time.isEmpty { errors.append(FieldError(field: "time", message: arriveBy ? "Enter the time you must arrive by" : "Enter the pick-up time")) }
            if !date.isEmpty, !time.isEmpty {
                do throws(ValidationError) {
                    _ = try LocalDate(date, field: "date")
                    pickupAt = try clock.parse("\(date)T\(time)", field: "time")
                    try policy.checkPickupTime(pickupAt, now: now, field: "time")
                } catch {
                    add(error, as: error.field == "date" || error.reason.contains("days ahead") ? "date" : "time")
                }
            }
        }
        let companionCount = Int(companions) ?? -1
        do throws(ValidationError) { try policy.checkDetails(companions: companionCount, note: note) } catch { add(error) }
        let matcher = PlaceMatcher(places: places, policy: policy)
        var pickupInput = PlaceMatcher.Input(place: pickup)
        if pickup.isEmpty, let lat = Double(pickupLat), let lon = Double(pickupLon) { pickupInput = PlaceMatcher.Input(lat: lat, lon: lon) }
        var pickupEnd = RideEndpoint(), dropoffEnd = RideEndpoint()
        if pickupInput.place?.isEmpty == true {
            errors.append(FieldError(field: "pickup", message: kind == .now
                ? "Enter where the van should pick you up, or use your location" : "Enter where the van should pick you up"))
        } else {
            do throws(ValidationError) { pickupEnd = try matcher.resolve(pickupInput, field: "pickup") } catch { add(error, as: "pickup") }
        }
        if dropoff.isEmpty {
            errors.append(FieldError(field: "dropoff", message: "Enter where you are going"))
        } else {
            do throws(ValidationError) { dropoffEnd = try matcher.resolve(PlaceMatcher.Input(place: dropoff), field: "dropoff") } catch { add(error, as: "dropoff") }
        }
        var times = [pickupAt]
        var seriesID: UUID?
        if kind == .ahead, repeats, errors.isEmpty {
            do throws(ValidationError) {
                if repeatDays.isEmpty { throw ValidationError(field: "repeat_days", reason: "choose at least one weekday") }
                var weekdays = Set<Int>()
                for name in repeatDays { weekdays.insert(try Recurrence.weekday(named: name)) }
                if repeatUntil.isEmpty { throw ValidationError(field: "repeat_until", reason: "enter the last date of the series") }
                let until = try LocalDate(repeatUntil, field: "repeat_until")
                if until.interval(in: timeZone).end > now.addingTimeInterval(policy.seriesHorizon) {
                    throw ValidationError(field: "repeat_until", reason: "is more than \(Int(policy.seriesHorizon / 86_400)) days ahead")
                }
                times = try Recurrence(weekdays: weekdays, until: until).occurrences(startingAt: pickupAt, in: timeZone)
                if times.isEmpty { throw ValidationError(field: "repeat_days", reason: "none of these weekdays falls between the date and the last date") }
                seriesID = .timeOrdered(at: now)
            } catch {
                add(error, as: error.field == "repeat_until" ? "repeat_until" : "repeat_days")
            }
        }
        guard errors.isEmpty else { return .failure(FieldErrors(errors: errors)) }
        let trimmedNote = note.isEmpty ? nil : note
        let rides = times.map { at in
            NewRide(id: .timeOrdered(at: now), netID: netID, kind: kind == .now ? .onDemand : .scheduled, pickup: pickupEnd, dropoff: dropoffEnd, pickupAt: at,
                    promise: arriveBy ? .arriveBy : .pickup, needsWheelchair: wheelchair, companions: companionCount, note: trimmedNote, seriesID: seriesID,
                    status: autoApprove ? .approved : .pending)
        }
        return .success((rides, seriesID))
    }

    /// Problems found in a form.
    struct FieldErrors: Error, Sendable {
        let errors: [FieldError]
    }

    /// The form field a domain error's field belongs to ("pickup.place" → "pickup").
    static func formField(for field: String) -> String {
        let head = String(field.split(separator: ".").first ?? "")
        switch head {
        case "pickup", "dropoff", "companions", "note": return head
        case "pickup_at": return "time"
        case "repeat": return field == "repeat.until" ? "repeat_until" : "repeat_days"
        default: return head
        }
    }

    /// "Pick-up time is in the past; …", or "Pick-up place: 'Foo' is not a known place; …".
    static func sentence(label: String, reason: String) -> String {
        let reason = reason.replacingOccurrences(of: "see GET /v1/places", with: "choose one from the list")
        if reason.hasPrefix("is ") || reason.hasPrefix("must ") { return "\(label) \(reason)" }
        return "\(label): \(reason.prefix(1).uppercased() + reason.dropFirst())"
    }

    /// The values to put back in the form.
    var values: [String: String] {
        ["pickup": pickup, "pickup_lat": pickupLat, "pickup_lon": pickupLon, "dropoff": dropoff, "date": date, "time": time,
         "time_is": arriveBy ? "arrive" : "", "companions": companions, "note": note, "repeat_until": repeatUntil]
    }

    /// The same request at another time (a suggestion's one-tap form): the pickup, or the
    /// arrival when the rider asked to arrive by a time.
    func at(_ date: Date, timeZone: TimeZone) -> WebBookingForm {
        var copy = self
        let fields = WebTimeWords(timeZone: timeZone).formFields(date)
        copy.kind = .ahead
        copy.date = fields.date
        copy.time = fields.time
        copy.repeats = false
        copy.repeatDays = []
        copy.repeatUntil = ""
        return copy
    }
}
