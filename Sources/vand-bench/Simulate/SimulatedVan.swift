import Foundation
import VanDomain

/// One van's driver in the simulation: where the van is and what the driver is doing.
struct SimulatedVan: Sendable {
    /// What the driver is doing.
    enum Phase: Sendable {
        /// At `place`, looking at the run for the next stop.
        case idle
        /// Driving a leg to a stop.
        case driving(Leg)
        /// At a stop before it opens (a pickup before its window): waiting to tap "arrived".
        case early(DeskStop)
        /// The rider is boarding; "on board" when done.
        case boarding(DeskStop)
        /// The rider is not there: "no-show" once the wait is over.
        case waitingForRider(DeskStop)
        /// The rider is getting off; "dropped off" when done.
        case alighting(DeskStop)
    }

    /// A drive from one place to a stop, with its drawn duration.
    struct Leg: Sendable {
        var from: Coordinate
        var to: DeskStop
        var departed: Date
        var arrives: Date

        /// Where the van is at `time`, on the straight line (good enough for positions).
        func position(at time: Date) -> Coordinate {
            let total = arrives.timeIntervalSince(departed)
            guard total > 0 else { return to.place }
            let share = min(1, max(0, time.timeIntervalSince(departed) / total))
            return
                (try? Coordinate(
                    latitude: from.latitude + (to.place.latitude - from.latitude) * share,
                    longitude: from.longitude + (to.place.longitude - from.longitude) * share)) ?? to.place
        }
    }

    /// The van's id.
    var id: Int64
    /// The driver's account.
    var driver: NetID
    /// Where the van last stood (its start: the first stop of its day).
    var place: Coordinate?
    /// What the driver is doing.
    var phase: Phase = .idle
    /// Seconds spent driving.
    var driving: TimeInterval = 0
    /// The rides on board now (tapped on board, not yet dropped off).
    var aboard: Set<UUID> = []
    /// Since when the van has stood at a stop before its window with riders aboard (nil: it is not).
    var waitingAboardSince: Date?
    /// Seconds the van stood at stops waiting for a window with riders aboard.
    var onboardWait: TimeInterval = 0

    /// The van stops waiting for a window at `now`: the time it stood there with riders aboard is counted.
    mutating func endWaitAboard(_ now: Date) {
        if let since = waitingAboardSince { onboardWait += max(0, now.timeIntervalSince(since)) }
        waitingAboardSince = nil
    }
}
