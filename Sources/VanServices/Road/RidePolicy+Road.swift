import Foundation
import VanDomain

extension RoadError {
    /// The service's error for the policy's refusal of a tap.
    init(_ refusal: RidePolicy.TapRefusal) {
        switch refusal {
        case .doesNotFit(let action, let stop): self = .actionDoesNotFit(action, stop)
        case .stopHasOutcome(let action): self = .stopHasOutcome(action)
        case .rideNotActive(let status): self = .rideNotActive(status)
        case .needsEarlier(let action, let needed, let stop): self = .needsEarlier(action, before: needed, at: stop)
        case .arrivedAfterWindow(let end): self = .arrivedAfterWindow(windowEnd: end)
        case .noShowTooEarly(let from): self = .noShowTooEarly(allowedFrom: from)
        }
    }

    /// The service's error for the policy's refusal of an undo.
    init(_ refusal: RidePolicy.UndoRefusal) {
        switch refusal {
        case .windowPassed(let closedAt): self = .undoWindowPassed(closedAt: closedAt)
        case .laterFirst(let action, _): self = .undoLaterFirst(action)
        case .notForRiders: self = .noSuchTap
        }
    }
}

extension StopTap {
    /// The tap as the ride policy reads it.
    var policyTap: RidePolicy.Tap { RidePolicy.Tap(stop: stop, action: action, at: at) }

    /// What the standing `taps` of a ride say happened at `stop`, as ``VanRun`` holds it.
    static func actual(_ taps: [StopTap], at stop: StopKind) -> VanRun.Actual {
        let here = taps.filter { $0.stop == stop }
        let outcome = here.first { $0.action.isOutcome }
        return VanRun.Actual(arrivedAt: here.first { $0.action == .arrived }?.at, doneAt: outcome?.at, outcome: outcome?.action)
    }
}

extension RunRides.Row {
    /// The ride as the road model (``VanRun``) holds it.
    var runRide: VanRun.Ride {
        VanRun.Ride(
            id: id, ref: ref, netID: netID, status: status, promise: promise, pickupAt: pickupAt, dropoffAt: dropoffAt,
            pickup: pickup.coordinate, dropoff: dropoff.coordinate, wheelchair: wheelchair, companions: companions)
    }

    /// What the tap rules read of this ride, with the taps `standing` on it.
    func roadState(standing: [StopTap]) -> RidePolicy.RoadState {
        RidePolicy.RoadState(
            status: status, standing: standing.map(\.policyTap),
            pickupWindow: NoShowRule.pickupWindow(promise: promise, plannedPickup: pickupAt), toldETA: toldPickupETA)
    }
}
