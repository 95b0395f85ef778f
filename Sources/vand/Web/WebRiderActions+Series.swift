import Foundation
import VanDomain
import VanServices

extension WebRiderActions {
    /// Her series `id` with its holds and rides (``SeriesError/notFound`` when it is not hers).
    func series(_ id: UUID, of netID: NetID) async throws -> SeriesDetail {
        guard let series else { throw SeriesError.notFound }
        return try await series.show(id, for: netID, now: now)
    }

    /// Checks or makes an edit of her series; her page of rides is dropped from memory after a change.
    func editSeries(_ id: UUID, of netID: NetID, _ edit: SeriesEditRequest, apply: Bool) async throws -> SeriesChangeAnswer {
        guard let series else { throw SeriesError.notFound }
        let answer = try await series.edit(id, for: netID, edit, apply: apply, now: now)
        if answer.applied { pages?.changed(netID) }
        return answer
    }

    /// Holds her series from `from` through `to`.
    func holdSeries(_ id: UUID, of netID: NetID, from: String?, to: String?) async throws -> SeriesHoldAnswer {
        guard let series else { throw SeriesError.notFound }
        let held = try await series.hold(id, for: netID, from: from, to: to, now: now)
        pages?.changed(netID)
        return held
    }

    /// Checks or makes the early end of a hold of her series.
    func resumeSeries(_ id: UUID, hold: Int64, of netID: NetID, choices: [String: String], apply: Bool) async throws -> SeriesChangeAnswer {
        guard let series else { throw SeriesError.notFound }
        let answer = try await series.resume(id, hold: hold, for: netID, choices: choices, apply: apply, now: now)
        if answer.applied { pages?.changed(netID) }
        return answer
    }
}
