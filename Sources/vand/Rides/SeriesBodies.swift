import Foundation
import VanDomain
import VanServices

/// `POST /v1/series/{id}/edits` and `…/edits/check`: what changes, for which dates, and her
/// choices for the dates that did not fit.
struct SeriesEditBody: Decodable, Sendable {
    var request: SeriesEditRequest

    enum CodingKeys: String, CodingKey { case scope, date, time, promise, pickup, dropoff, choices }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        request = SeriesEditRequest(
            scope: try c.member(String.self, .scope), date: try c.member(String.self, .date), time: try c.member(String.self, .time),
            promise: try c.member(String.self, .promise), pickup: try c.member(EndpointInput.self, .pickup)?.value,
            dropoff: try c.member(EndpointInput.self, .dropoff)?.value, choices: try c.member([String: String].self, .choices) ?? [:])
    }
}

/// `POST /v1/series/{id}/holds`: the first and last dates held.
struct SeriesHoldBody: Decodable, Sendable {
    var from: String?
    var to: String?

    enum CodingKeys: String, CodingKey { case from, to }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        from = try c.member(String.self, .from)
        to = try c.member(String.self, .to)
    }
}

/// `POST /v1/series/{id}/holds/{hold}/resume` and `…/resume/check`: her choices for the dates
/// that did not fit (an empty body is none).
struct SeriesResumeBody: Decodable, Sendable {
    var choices: [String: String] = [:]

    enum CodingKeys: String, CodingKey { case choices }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        choices = try c.member([String: String].self, .choices) ?? [:]
    }

    init() {}
}
