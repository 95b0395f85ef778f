import Foundation
import VanDomain
import VanServices

/// A rider's standing series at the console: read, held and resumed for her by the office
/// through the one ``SeriesService`` (as her own page, the API and `vanadmin series`), the
/// dispatcher named as `actor` in the audit log and the rides' events.
extension WebDispatchActions {
    /// `netID`'s series, newest first, each with its holds and rides.
    func series(of netID: NetID) async throws -> [SeriesDetail] {
        guard let series else { return [] }
        var details: [SeriesDetail] = []
        for standing in try await series.list(for: netID) { details.append(try await series.show(standing.id, for: netID, now: now)) }
        return details
    }

    /// Holds her series `id` from `from` through `to` as `actor`; throws ``InvalidFields`` (`from`,
    /// `to`) or ``SeriesError/notFound``, changing nothing then.
    func holdSeries(_ id: UUID, of netID: NetID, from: String?, to: String?, actor: String) async throws -> SeriesHoldAnswer {
        guard let series else { throw SeriesError.notFound }
        return try await series.hold(id, for: netID, from: from, to: to, now: now, actor: actor)
    }

    /// Checks (`apply` false) or makes the early end of hold `hold` of her series `id` as `actor`.
    func resumeSeries(_ id: UUID, hold: Int64, of netID: NetID, choices: [String: String], apply: Bool, actor: String) async throws
        -> SeriesChangeAnswer
    {
        guard let series else { throw SeriesError.notFound }
        return try await series.resume(id, hold: hold, for: netID, choices: choices, apply: apply, now: now, actor: actor)
    }
}
