import Foundation
import Hummingbird
import VanDomain
import VanScheduler
import VanServices

/// The answer to `POST /v1/rides`, rendered after the booking committed: 201 with the
/// ride or the series (and its `Location`), or 409 with the nearest times that work.
/// Keeps the status, location and refusal reason as fields, so neither the metrics nor a
/// retry ever read them back out of the JSON.
struct BookingAnswer: Sendable {
    let status: HTTPResponse.Status
    /// The path of what was booked.
    let location: String?
    /// Why nothing was booked: a refusal code, or `series`.
    let reason: String?
    /// The JSON text.
    let text: String

    /// The answer for fresh outcomes; a ride booked with a will-call way back (starting at
    /// `willCall`) shows it open.
    init(_ outcomes: [BookingOutcome], seriesID: UUID?, requested: [Date], clock: ServiceTime, willCall: RideEndpoint? = nil) throws {
        guard let seriesID else {
            switch outcomes[0] {
            case .booked(let ride):
                let call = willCall.map { WillCall(rideID: ride.id, netID: ride.netID, pickup: $0, createdAt: ride.requestedAt) }
                self = try BookingAnswer(ride: ride, clock: clock, willCall: call)
            case .refused(let feasibility, let sentence):
                let problem = Self.conflict(feasibility, sentence: sentence, requested: requested[0], clock: clock)
                self.init(status: .conflict, location: nil, reason: feasibility.refusalCode, text: try APIJSON.string(problem.body))
            case .overlaps(let other):
                let problem = Self.overlap(other, requested: requested[0], clock: clock)
                self.init(status: .conflict, location: nil, reason: BookingOutcome.overlapsCode, text: try APIJSON.string(problem.body))
            }
            return
        }
        var booked: [RideView] = []
        var conflicts: [SeriesView.Conflict] = []
        for (outcome, at) in zip(outcomes, requested) {
            switch outcome {
            case .booked(let ride): booked.append(RideView(ride, clock: clock))
            case .refused(let feasibility, let sentence):
                conflicts.append(
                    SeriesView.Conflict(
                        requestedPickupAt: clock.format(at), reason: feasibility.refusalCode, detail: sentence,
                        suggestions: feasibility.suggestions.map { SuggestionView($0, clock: clock) }, ride: nil))
            case .overlaps(let other):
                conflicts.append(
                    SeriesView.Conflict(
                        requestedPickupAt: clock.format(at), reason: BookingOutcome.overlapsCode, detail: outcome.sentence(clock: clock) ?? "",
                        suggestions: [], ride: Self.path(of: other)))
            }
        }
        let id = seriesID.uuidString.lowercased()
        if booked.isEmpty {
            var problem = Problem(
                status: .conflict, slug: "series-conflicts", title: "No occurrence of the series is free",
                detail: "None of the \(requested.count) rides could be booked; see conflicts for other times.")
            problem.members["conflicts"] = .array(
                conflicts.map { conflict in
                    var object: [String: JSONValue] = [
                        "requested_pickup_at": .string(conflict.requestedPickupAt), "reason": .string(conflict.reason),
                        "detail": .string(conflict.detail), "suggestions": .array(conflict.suggestions.map(\.json)),
                    ]
                    if let ride = conflict.ride { object["ride"] = .string(ride) }
                    return .object(object)
                })
            self.init(status: .conflict, location: nil, reason: "series", text: try APIJSON.string(problem.body))
        } else {
            self.init(
                status: .created, location: "/v1/series/\(id)", reason: nil,
                text: try APIJSON.string(SeriesView(seriesID: id, booked: booked, conflicts: conflicts)))
        }
    }

    /// 201 with one booked ride (and its will-call way back, if it has one).
    init(ride: Ride, clock: ServiceTime, willCall: WillCall? = nil) throws {
        var view = RideView(ride, clock: clock)
        view.willCall = willCall.map { WillCallView($0, clock: clock) }
        self.init(status: .created, location: Self.path(of: ride), reason: nil, text: try APIJSON.string(view))
    }

    /// The first answer again, for a retry; nil while it is not recorded yet.
    init?(_ remembered: RememberedBooking) {
        guard let text = remembered.answer else { return nil }
        let location =
            remembered.rideID.map { "/v1/rides/\($0.uuidString.lowercased())" }
            ?? remembered.seriesID.map { "/v1/series/\($0.uuidString.lowercased())" }
        self.init(
            status: remembered.outcome == .booked ? .created : .conflict,
            location: remembered.outcome == .booked ? location : nil, reason: remembered.reason, text: text)
    }

    /// 201 with `text`, the booking at `created`.
    init(created: String, text: String) {
        self.init(status: .created, location: created, reason: nil, text: text)
    }

    /// 409 with `problem`; `reason` for the metrics.
    init(conflict problem: Problem, reason: String) throws {
        self.init(status: .conflict, location: nil, reason: reason, text: try APIJSON.string(problem.body))
    }

    private init(status: HTTPResponse.Status, location: String?, reason: String?, text: String) {
        self.status = status
        self.location = location
        self.reason = reason
        self.text = text
    }

    var response: Response {
        var headers: HTTPFields = [.contentType: status.code >= 400 ? "application/problem+json" : "application/json", .cacheControl: "no-store"]
        if let location { headers[.location] = location }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The API path of a ride.
    static func path(of ride: Ride) -> String { "/v1/rides/\(ride.id.uuidString.lowercased())" }

    /// 409 for a time that overlaps a ride the rider already holds: which ride (`ride`, its path; `ride_ref`).
    static func overlap(_ other: Ride, requested: Date, clock: ServiceTime, detail: String? = nil) -> Problem {
        var problem = Problem(
            status: .conflict, slug: "ride-overlaps", title: "You already have a ride at that time",
            detail: detail ?? BookingOutcome.overlaps(other).sentence(clock: clock) ?? "")
        problem.members["reason"] = .string(BookingOutcome.overlapsCode)
        problem.members["requested_pickup_at"] = .string(clock.format(requested))
        problem.members["ride"] = .string(path(of: other))
        problem.members["ride_ref"] = .string(other.ref.rawValue)
        return problem
    }

    /// 409 for a taken time: the sentence, the reason, and the nearest times to book in one more call.
    static func conflict(_ feasibility: Feasibility, sentence: String, requested: Date, clock: ServiceTime) -> Problem {
        let reason = feasibility.refusalCode
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
}

extension VandMetrics {
    /// Counts a fresh booking answer: made, or refused and why.
    func record(_ answer: BookingAnswer) {
        if let reason = answer.reason { bookingRefused(reason: reason) } else { bookingMade() }
    }
}
