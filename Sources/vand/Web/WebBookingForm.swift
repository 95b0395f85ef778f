import Crypto
import Foundation
import VanDomain
import VanServices
import VanScheduler
import VanPostgres

/// The "Ride now" and "Book ahead" forms: what the rider typed, translated into the
/// ``BookingRequest`` `POST /v1/rides` also fills, and the booking rules' problems translated
/// back onto the form field the rider must fix.
struct WebBookingForm: Sendable {
    enum Kind: String, Sendable { case now, ahead }

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
    /// "And back at": the way back's pickup time on the ride's date (empty: no way back).
    var returnTime = ""
    /// "I'll call when I'm ready": a way back with no time, booked when she says she is ready
    /// (``WillCall``); with `returnTime` too, the rules refuse it.
    var willCall = false

    /// One problem, on one field.
    struct FieldError: Sendable, Equatable {
        let field: String
        let message: String
        /// A page the message points to (the ride in the way).
        var link: String?
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
        returnTime = kind == .ahead ? form["return_time"] : ""
        willCall = kind == .ahead && form.isChecked("will_call")
    }

    static let labels = [
        "pickup": "Pick-up place", "dropoff": "Destination", "date": "Date", "time": "Time",
        "companions": "Companions", "note": "Note for the driver", "repeat_days": "Repeat on", "repeat_until": "Repeat until",
        "return_time": "The time to come back",
    ]

    /// The form as a booking request: the same type `POST /v1/rides` fills, checked by the same
    /// ``BookingRules``. A date or time left empty is sent as no time at all.
    var request: BookingRequest {
        var request = BookingRequest(
            kind: kind == .now ? .onDemand : .scheduled, pickup: PlaceMatcher.Input(place: pickup),
            dropoff: PlaceMatcher.Input(place: dropoff), needsWheelchair: wheelchair,
            companions: Int(companions) ?? -1, note: note)
        if pickup.isEmpty, let lat = Double(pickupLat), let lon = Double(pickupLon) { request.pickup = PlaceMatcher.Input(lat: lat, lon: lon) }
        if kind == .ahead, !date.isEmpty, !time.isEmpty {
            if arriveBy { request.arriveBy = "\(date)T\(time)" } else { request.pickupAt = "\(date)T\(time)" }
        }
        if kind == .ahead, repeats { request.repeats = BookingRequest.Repeat(weekdays: repeatDays, until: repeatUntil) }
        if kind == .ahead, !returnTime.isEmpty || willCall {
            request.returnTrip = BookingRequest.Return(pickupAt: returnTime.isEmpty ? nil : "\(date)T\(returnTime)", willCall: willCall)
        }
        return request
    }

    /// The form's fields in page order (the error summary lists them so).
    static let fieldOrder = ["pickup", "dropoff", "date", "time", "return_time", "companions", "note", "repeat_days", "repeat_until"]

    /// The booking rules' problems as this form's fields say them: each on the input to fix,
    /// an empty input asked for in words ("Enter the date of the ride"), one error per input.
    func fieldErrors(_ problems: InvalidFields) -> [FieldError] {
        var errors: [FieldError] = []
        func add(_ field: String, _ message: String) {
            guard !errors.contains(where: { $0.field == field }) else { return }
            errors.append(FieldError(field: field, message: message))
        }
        for problem in problems.errors {
            switch Self.formField(for: problem.field) {
            case "time" where date.isEmpty || time.isEmpty:
                if date.isEmpty { add("date", "Enter the date of the ride") }
                if time.isEmpty { add("time", arriveBy ? "Enter the time you must arrive by" : "Enter the pick-up time") }
            case "time":
                let onDate = (try? LocalDate(date)) == nil || problem.reason.contains("days ahead")
                add(onDate ? "date" : "time", Self.sentence(label: Self.labels[onDate ? "date" : "time"]!, reason: problem.reason))
            case "pickup" where pickup.isEmpty && (Double(pickupLat) == nil || Double(pickupLon) == nil):
                add(
                    "pickup", kind == .now ? "Enter where the van should pick you up, or use your location" : "Enter where the van should pick you up"
                )
            case "dropoff" where dropoff.isEmpty:
                add("dropoff", "Enter where you are going")
            case "repeat_days" where repeatDays.isEmpty:
                add("repeat_days", "Choose at least one weekday")
            case "repeat_until" where repeatUntil.isEmpty:
                add("repeat_until", "Enter the last date of the series")
            case "return_time" where problem.field == "return.will_call":
                add("return_time", "Give a time to come back, or tick \u{201C}I\u{2019}ll call when I\u{2019}m ready\u{201D}, not both")
            case let field:
                add(field, Self.sentence(label: Self.labels[field] ?? field, reason: problem.reason))
            }
        }
        return errors.sorted { (Self.fieldOrder.firstIndex(of: $0.field) ?? .max) < (Self.fieldOrder.firstIndex(of: $1.field) ?? .max) }
    }

    /// The form field a domain error's field belongs to ("pickup.place" → "pickup").
    static func formField(for field: String) -> String {
        let head = String(field.split(separator: ".").first ?? "")
        switch head {
        case "pickup", "dropoff", "companions", "note": return head
        case "pickup_at", "arrive_by": return "time"
        case "repeat": return field == "repeat.until" ? "repeat_until" : "repeat_days"
        case "return": return "return_time"
        default: return head
        }
    }

    /// "Pick-up time is in the past; …", or "Pick-up place: 'Foo' is not a known place; …".
    static func sentence(label: String, reason: String) -> String {
        let reason = reason.replacingOccurrences(of: "see GET /v1/places", with: "choose one from the list")
        if reason.hasPrefix("is ") || reason.hasPrefix("must ") { return "\(label) \(reason)" }
        return "\(label): \(reason.prefix(1).uppercased() + reason.dropFirst())"
    }

    /// The hidden field holding a form's one-time key: each rendered booking form gets a fresh
    /// one, so the same form sent twice books once (``IdempotencyKey``, as `Idempotency-Key` does
    /// for the API), and a form sent after a change of mind is a new request.
    static let formKeyField = "form_key"

    /// A fresh one-time key for a rendered form.
    static func newFormKey() -> String { WebSession.newCSRFValue() }

    /// The sent form's key: its one-time key and a digest of everything else it carries but the
    /// CSRF token, so the same form sent again is one request, and the form changed and sent
    /// (after the back button) is another. Nil when the form has no key: it then books
    /// unguarded, as an API request without `Idempotency-Key` does.
    static func idempotencyKey(_ form: WebForm, netID: NetID) -> IdempotencyKey? {
        let key = form[formKeyField]
        guard (1...64).contains(key.utf8.count) else { return nil }
        let content = Data(form.pairs.filter { $0.0 != "csrf" && $0.0 != formKeyField }.map { "\($0.0)=\($0.1)\n" }.joined().utf8)
        let digest = SHA256.hash(data: content).map { String(format: "%02x", $0) }.joined()
        return IdempotencyKey(netID: netID, key: "web:\(key):\(digest)", body: content)
    }

    /// The values to put back in the form.
    var values: [String: String] {
        [
            "pickup": pickup, "pickup_lat": pickupLat, "pickup_lon": pickupLon, "dropoff": dropoff, "date": date, "time": time,
            "time_is": arriveBy ? "arrive" : "", "companions": companions, "note": note, "repeat_until": repeatUntil,
            "return_time": returnTime,
        ]
    }

    /// The same request at another time (a suggestion's one-tap form): the pickup, or the
    /// arrival when the rider asked to arrive by a time; for the way back's leg, its time alone.
    func at(_ date: Date, timeZone: TimeZone, leg: TripOutcome.Leg = .there) -> WebBookingForm {
        var copy = self
        let fields = WebTimeWords(timeZone: timeZone).formFields(date)
        if leg == .back {
            copy.returnTime = fields.time
            return copy
        }
        copy.kind = .ahead
        copy.date = fields.date
        copy.time = fields.time
        copy.repeats = false
        copy.repeatDays = []
        copy.repeatUntil = ""
        return copy
    }
}
