import Foundation
import Synchronization
import VanDomain
import VanServices

/// The data of one `eta` server-sent event: `{"ride_id": …, "eta": {…}}`, or `"eta": null` once
/// the rider may no longer see it. Sent without an `id:`, so `Last-Event-ID` keeps naming notifications.
struct ETAEventView: Encodable, Sendable {
    /// The ride's id, lowercased.
    let ride_id: String
    /// The van's ETA at her pickup, or nil: no longer shown.
    let eta: ETAView?

    private enum CodingKeys: String, CodingKey { case ride_id, eta }

    /// Both keys always: a nil ETA is written out as `null`, never left out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ride_id, forKey: .ride_id)
        try container.encode(eta, forKey: .eta)
    }

    /// `event: eta` with this as its data.
    func serverSentEvent() throws -> ServerSentEvent {
        try ServerSentEvent(.eta, payload: self)
    }
}

extension ETAEventView {
    /// The view of `update`, its time written by `clock`.
    init(_ update: RiderETAUpdate, clock: ServiceTime) {
        self.init(ride_id: update.rideID.uuidString.lowercased(), eta: update.eta.map { ETAView($0, clock: clock) })
    }
}

/// ETA updates waiting for a stream's writer: the newest per ride. ``put(_:)`` says whether the
/// writer needs a signal (none is pending), so one signal stands for any number of updates.
final class PendingETAs: Sendable {
    private struct State {
        var updates: [UUID: RiderETAUpdate] = [:]
        var order: [UUID] = []
        var signalled = false
    }

    private let state = Mutex(State())

    /// Keeps `update` (replacing an older one for its ride); true when the writer must be signalled.
    func put(_ update: RiderETAUpdate) -> Bool {
        state.withLock { state in
            if state.updates.updateValue(update, forKey: update.rideID) == nil { state.order.append(update.rideID) }
            defer { state.signalled = true }
            return !state.signalled
        }
    }

    /// Everything waiting, oldest ride first; the next ``put(_:)`` signals again.
    func take() -> [RiderETAUpdate] {
        state.withLock { state in
            defer { state = State() }
            return state.order.compactMap { state.updates[$0] }
        }
    }
}
