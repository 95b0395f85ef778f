import Foundation
import Hummingbird
import VanDomain
import VanScheduler
import VanServices

/// The answer to `POST /v1/rides` with a `return`: 201 with the ride there (its `Location`) and
/// the way back under `return`, or 409 naming the leg that did not fit (`leg`: `there` or
/// `return`) with that leg's nearest times; nothing is booked then.
enum TripAnswer {
    /// The answer for a fresh outcome.
    static func make(_ outcome: TripOutcome, there: NewRide, back: NewRide, clock: ServiceTime) throws -> BookingAnswer {
        switch outcome {
        case .booked(let ride, let way):
            return BookingAnswer(
                created: BookingAnswer.path(of: ride),
                text: try APIJSON.string(TripView(there: RideView(ride, clock: clock), back: RideView(way, clock: clock))))
        case .refused(let leg, let refusal):
            let asked = leg == .there ? there.pickupAt : back.pickupAt
            let sentence = outcome.sentence(clock: clock) ?? ""
            var problem: Problem
            switch refusal {
            case .refused(let feasibility, _):
                problem = BookingAnswer.conflict(feasibility, sentence: sentence, requested: asked, clock: clock)
            case .overlaps(let other), .booked(let other):
                problem = BookingAnswer.overlap(other, requested: asked, clock: clock, detail: sentence)
            }
            problem.members["leg"] = .string(leg.rawValue)
            return try BookingAnswer(conflict: problem, reason: outcome.refusalCode ?? "occupied")
        case .backTooSoon(let earliest, let suggestion):
            var problem = Problem(
                status: .conflict, slug: "slot-unavailable", title: "The way back is asked for before the ride there may end",
                detail: outcome.sentence(clock: clock) ?? "")
            problem.members["reason"] = .string("return_too_soon")
            problem.members["leg"] = .string(TripOutcome.Leg.back.rawValue)
            problem.members["requested_pickup_at"] = .string(clock.format(back.pickupAt))
            problem.members["earliest_pickup_at"] = .string(clock.format(earliest))
            let suggestions = suggestion.map { [SuggestionView($0, clock: clock)] } ?? []
            problem.members["suggestions"] = .array(suggestions.map(\.json))
            return try BookingAnswer(conflict: problem, reason: "return_too_soon")
        }
    }
}

/// A trip booked: the ride there, as `GET /v1/rides/{id}` shows it, and the way back under `return`.
struct TripView: Encodable, Sendable {
    let there: RideView
    let back: RideView

    enum CodingKeys: String, CodingKey { case back = "return" }

    func encode(to encoder: any Encoder) throws {
        try there.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(back, forKey: .back)
    }
}
