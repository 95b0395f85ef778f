import Foundation
import Synchronization
import VanDomain
import VanServices

/// One `eta` server-sent event: `{"ride_id": …, "eta": {…}}`, or `"eta": null` once the rider
/// may no longer see it. No `id:` line, so `Last-Event-ID` keeps naming notifications.
struct ETAEventView: Encodable, Sendable {
    let ride_id: String
    let eta: ETAView?

    init(_ update: RiderETAUpdate, clock: ServiceTime) {
        ride_id = update.rideID.uuidString.lowercased()
        eta = update.eta.map { ETAView($0, clock: clock) }
    }

    /// `event: eta` and `data:` the JSON (null written out, not left out).
    func serverSentEvent() throws -> String {
        "event: eta\ndata: \(try json())\n\n"
    }

    func json() throws -> String {
        guard let eta else { return "{\"eta\":null,\"ride_id\":\"\(ride_id)\"}" }
        struct Shown: Encodable { let eta: ETAView; let ride_id: String }
        return try APIJSON.string(Shown(eta: eta, ride_id: ride_id))
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
