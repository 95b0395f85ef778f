import Foundation
import VanDomain
import VanServices

/// The data of the console stream's `event: ride`:
/// `{"ride": "<uuid>", "kind": "<ride event kind>", "van": <id or null>, "day": "YYYY-MM-DD"}`.
struct DispatchRideEventView: Encodable, Sendable {
    /// The ride's id, lowercased.
    let ride: String
    /// What happened; a kind this build does not know is sent as `updated`.
    let kind: RideEventKind
    /// The ride's van, or nil (written out as `null`).
    let van: Int64?
    /// The pickup's service day, `YYYY-MM-DD`.
    let day: String

    private enum CodingKeys: String, CodingKey { case ride, kind, van, day }

    /// Every key always: a ride on no van says `"van": null`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ride, forKey: .ride)
        try container.encode(kind, forKey: .kind)
        try container.encode(van, forKey: .van)
        try container.encode(day, forKey: .day)
    }
}

/// The data of the console stream's `event: van`: `{"van": <id>}` (a position, or a tap that moved it).
struct DispatchVanEventView: Encodable, Sendable {
    /// The van's id.
    let van: Int64
}

/// The data of the console stream's `event: alert`: `{"kind": "late|no_show|parked|pending|unstaffed"}`.
struct DispatchAlertEventView: Encodable, Sendable {
    /// What the alerts page has news of.
    enum Kind: String, Encodable, Sendable, CaseIterable {
        /// A late alert was raised, updated or cleared.
        case late
        /// A ride was marked no-show.
        case noShow = "no_show"
        /// A webhook delivery parked, or parked ones were sent again.
        case parked
        /// A pending ride crossed the pending limit, or is due soon.
        case pending
        /// A ride on a van with no driver on shift came within the unstaffed lead.
        case unstaffed
    }

    /// What the alert is about; one this build does not know is sent as `pending`.
    let kind: Kind
}

extension WebDispatchStream {
    /// The server-sent event of `update`.
    static func event(_ update: DispatchUpdate) throws -> ServerSentEvent {
        switch update {
        case .ride(let id, let kind, let van, let day):
            let view = DispatchRideEventView(
                ride: id.uuidString.lowercased(), kind: RideEventKind(rawValue: kind) ?? .updated,
                van: van, day: day.description)
            return try ServerSentEvent(.ride, payload: view)
        case .van(let van):
            return try ServerSentEvent(.van, payload: DispatchVanEventView(van: van))
        case .alert(let kind):
            return try ServerSentEvent(.alert, payload: DispatchAlertEventView(kind: .init(rawValue: kind) ?? .pending))
        }
    }
}
