import Foundation
import VanDomain

/// The rules a booking request meets before the scheduler sees it, for every way in
/// (`POST /v1/rides` and the web app's forms alike): the pickup time (whole seconds, not past,
/// within the horizon), the places, the details, a series' weekdays and last date, and the
/// status a new ride starts in.
public struct BookingRules: Sendable, Hashable {
    /// Horizon, service area, on-demand lead, late cancellation.
    public var policy: BookingPolicy
    /// New rides are approved at once instead of waiting for the dispatcher.
    public var autoApprove: Bool

    /// Rules with `policy`; rides wait for the dispatcher unless `autoApprove`.
    public init(policy: BookingPolicy = BookingPolicy(serviceCenter: BookingPolicy.yaleCenter), autoApprove: Bool = false) {
        self.policy = policy
        self.autoApprove = autoApprove
    }

    /// Checks `request` and builds its rides, or throws every problem at once, each naming
    /// the request field to fix. Ids are time-ordered at `now`.
    public func check(_ request: BookingRequest, netID: NetID, places: [Place], timeZone: TimeZone, now: Date) throws(InvalidFields) -> CheckedBooking
    {
        var problems: [ValidationError] = []
        func check(_ work: () throws(ValidationError) -> Void) {
            do throws(ValidationError) { try work() } catch { problems.append(error) }
        }
        let clock = ServiceTime(timeZone: timeZone)
        var pickupAt = now.addingTimeInterval(policy.onDemandLead)
        var promise = RidePromise.Kind.pickup
        var timeField = "pickup_at"
        if request.kind == .scheduled {
            switch (request.pickupAt, request.arriveBy) {
            case (let text?, nil):
                check { () throws(ValidationError) in pickupAt = try clock.parse(text, field: "pickup_at") }
            case (nil, let text?):
                promise = .arriveBy
                timeField = "arrive_by"
                check { () throws(ValidationError) in pickupAt = try clock.parse(text, field: "arrive_by") }
            case (_?, _?):
                problems.append(ValidationError(field: "arrive_by", reason: "give pickup_at or arrive_by, not both"))
            case (nil, nil):
                problems.append(
                    ValidationError(field: "pickup_at", reason: "is required for a scheduled ride (or send arrive_by, or kind \"on_demand\")"))
            }
        } else if request.arriveBy != nil {
            problems.append(
                ValidationError(
                    field: "arrive_by", reason: "an on-demand ride is picked up as soon as possible; book a scheduled ride to arrive by a time"))
        } else if request.pickupAt != nil {
            problems.append(
                ValidationError(
                    field: "pickup_at", reason: "an on-demand ride is picked up as soon as possible; leave pickup_at out, or book a scheduled ride"))
        } else if request.repeats != nil {
            problems.append(ValidationError(field: "repeat", reason: "an on-demand ride cannot repeat; book a scheduled series"))
        }
        // Whole seconds: a promise is stored and compared to the second.
        pickupAt = Date(timeIntervalSince1970: pickupAt.timeIntervalSince1970.rounded(.up))
        if problems.isEmpty { check { () throws(ValidationError) in try policy.checkPickupTime(pickupAt, now: now, field: timeField) } }
        let matcher = PlaceMatcher(places: places, policy: policy)
        var pickup = RideEndpoint(), dropoff = RideEndpoint()
        check { () throws(ValidationError) in pickup = try matcher.resolve(request.pickup, field: "pickup") }
        check { () throws(ValidationError) in dropoff = try matcher.resolve(request.dropoff, field: "dropoff") }
        if !problems.contains(where: { $0.field == "pickup" || $0.field == "dropoff" }), Self.samePlace(pickup, dropoff) {
            problems.append(ValidationError(field: "dropoff", reason: "is where the ride starts; choose where the rider is going"))
        }
        var note = request.note?.trimmingCharacters(in: .whitespacesAndNewlines)
        if note?.isEmpty == true { note = nil }
        check { () throws(ValidationError) in try policy.checkDetails(companions: request.companions, note: note) }
        var times = [pickupAt]
        var seriesID: UUID?
        if let rule = request.repeats, problems.isEmpty {
            check { () throws(ValidationError) in times = try occurrences(of: rule, from: pickupAt, timeZone: timeZone, now: now) }
            seriesID = .timeOrdered(at: now)
        }
        var back: (pickupAt: Date?, pickup: RideEndpoint)?
        if let way = request.returnTrip {
            check { () throws(ValidationError) in
                back = try checkReturn(way, request: request, there: (pickupAt, pickup, dropoff), matcher: matcher, clock: clock, now: now)
            }
        }
        guard problems.isEmpty else { throw InvalidFields(problems) }
        let status: RideStatus = autoApprove ? .approved : .pending
        var rides = times.map { at in
            NewRide(
                id: .timeOrdered(at: now), netID: netID, kind: request.kind, pickup: pickup, dropoff: dropoff, pickupAt: at, promise: promise,
                needsWheelchair: request.needsWheelchair, companions: request.companions, note: note, seriesID: seriesID, status: status)
        }
        if let back, back.pickupAt == nil {
            return CheckedBooking(rides: rides, seriesID: seriesID, willCall: back.pickup)
        }
        if let back, let backAt = back.pickupAt, let there = rides.first {
            rides.append(
                NewRide(
                    id: .timeOrdered(at: now), netID: netID, kind: .scheduled, pickup: back.pickup, dropoff: pickup, pickupAt: backAt,
                    needsWheelchair: request.needsWheelchair, companions: request.companions, note: note, returnOf: there.id, status: status))
        }
        return CheckedBooking(rides: rides, seriesID: seriesID)
    }

    /// Whether two ends are one place: the same known place, or the same point.
    static func samePlace(_ a: RideEndpoint, _ b: RideEndpoint) -> Bool {
        if let x = a.placeID, let y = b.placeID { return x == y }
        if let x = a.coordinate, let y = b.coordinate { return x == y }
        return false
    }

    /// Every pickup of a weekly series from `first` through its last date, within the series horizon.
    private func occurrences(of rule: BookingRequest.Repeat, from first: Date, timeZone: TimeZone, now: Date) throws(ValidationError) -> [Date] {
        var weekdays = Set<Int>()
        for name in rule.weekdays { weekdays.insert(try Recurrence.weekday(named: name)) }
        if rule.until.isEmpty { throw ValidationError(field: "repeat.until", reason: "is required: the last date of the series") }
        let until = try LocalDate(rule.until, field: "repeat.until")
        if until.interval(in: timeZone).end > now.addingTimeInterval(policy.seriesHorizon) {
            throw ValidationError(field: "repeat.until", reason: "is more than \(Int(policy.seriesHorizon / 86_400)) days ahead")
        }
        let times = try Recurrence(weekdays: weekdays, until: until).occurrences(startingAt: first, in: timeZone)
        if times.isEmpty {
            throw ValidationError(field: "repeat", reason: "none of the chosen weekdays falls between the first ride and the last date")
        }
        return times
    }
}
