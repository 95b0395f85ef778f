import Foundation

/// The driver's taps and their undo, in the one ride policy: which tap the driver may make at a
/// stop and which she may take back, by the taps standing, the ride's status, the pickup window
/// and the time. ``TapService`` enforces it; the driver's run (the API's `next_actions` and the
/// driver's page) offers only what it allows.
extension RidePolicy {
    /// A tap standing on the ride (not undone).
    public struct Tap: Sendable, Hashable {
        /// The stop it was tapped at.
        public var stop: StopKind
        /// What was tapped.
        public var action: TapAction
        /// When.
        public var at: Date

        /// Creates a value.
        public init(stop: StopKind, action: TapAction, at: Date) {
            self.stop = stop
            self.action = action
            self.at = at
        }
    }

    /// What the tap rules read of a ride.
    public struct RoadState: Sendable, Hashable {
        /// The ride's status.
        public var status: RideStatus
        /// The taps standing on the ride, both stops.
        public var standing: [Tap]
        /// The window the van must reach the pickup in for a no-show (``NoShowRule/pickupWindow(promise:plannedPickup:)``).
        public var pickupWindow: DateInterval
        /// The pickup time the rider was last told in a late alert, if any.
        public var toldETA: Date?

        /// Creates a value.
        public init(status: RideStatus, standing: [Tap], pickupWindow: DateInterval, toldETA: Date? = nil) {
            self.status = status
            self.standing = standing
            self.pickupWindow = pickupWindow
            self.toldETA = toldETA
        }

        /// The taps standing at `stop`.
        public func standing(at stop: StopKind) -> [Tap] { standing.filter { $0.stop == stop } }
    }

    /// Why a tap is refused.
    public enum TapRefusal: Sendable, Hashable {
        /// The action is not one of this stop's (boarded at a drop-off, …).
        case doesNotFit(TapAction, StopKind)
        /// The stop already ended with another outcome.
        case stopHasOutcome(TapAction)
        /// The ride is not approved (cancelled, ended, …).
        case rideNotActive(RideStatus)
        /// A step comes first: `needed` before `action` at `stop`.
        case needsEarlier(TapAction, before: TapAction, at: StopKind)
        /// A no-show after the van reached the pickup past its window: never.
        case arrivedAfterWindow(windowEnd: Date)
        /// A no-show before the wait has passed; allowed from the date.
        case noShowTooEarly(allowedFrom: Date)
    }

    /// Why the driver may not tap `action` at `stop` of a ride in `state` at `now`; nil when she
    /// may. A tap already standing is not a refusal: the service answers it as done.
    public static func tapRefusal(_ action: TapAction, at stop: StopKind, _ state: RoadState, rule: NoShowRule, now: Date) -> TapRefusal? {
        guard action.fits(stop) else { return .doesNotFit(action, stop) }
        let here = state.standing(at: stop)
        if action.isOutcome, let other = here.first(where: { $0.action.isOutcome && $0.action != action }) { return .stopHasOutcome(other.action) }
        guard state.status == .approved else { return .rideNotActive(state.status) }
        let arrived = here.first { $0.action == .arrived }
        switch (stop, action) {
        case (.pickup, .arrived):
            return nil
        case (.dropoff, .arrived):
            let boarded = state.standing.contains { $0.stop == .pickup && $0.action == .boarded }
            return boarded ? nil : .needsEarlier(.arrived, before: .boarded, at: .pickup)
        case (_, .noShow):
            switch rule.refusal(arrivedAt: arrived?.at, window: state.pickupWindow, toldETA: state.toldETA, now: now) {
            case nil: return nil
            case .notArrived: return .needsEarlier(.noShow, before: .arrived, at: .pickup)
            case .arrivedAfterWindow(let end): return .arrivedAfterWindow(windowEnd: end)
            case .waiting(let until): return .noShowTooEarly(allowedFrom: until)
            }
        case (let stop, let action):
            return arrived == nil ? .needsEarlier(action, before: .arrived, at: stop) : nil
        }
    }

    /// The taps to offer the driver at `stop` now, in the order a page shows them, each with its
    /// refusal: nil (a button), or ``TapRefusal/noShowTooEarly(allowedFrom:)`` (a no-show she
    /// will be able to tap once the wait is over). Nothing once the stop or the ride has ended.
    public static func offeredTaps(at stop: StopKind, _ state: RoadState, rule: NoShowRule, now: Date) -> [(action: TapAction, refusal: TapRefusal?)]
    {
        let here = state.standing(at: stop)
        guard !here.contains(where: { $0.action.isOutcome }) else { return [] }
        return TapAction.allCases.compactMap { action in
            guard !here.contains(where: { $0.action == action }) else { return nil }
            let refusal = tapRefusal(action, at: stop, state, rule: rule, now: now)
            switch refusal {
            case nil, .noShowTooEarly: return (action, refusal)
            default: return nil
            }
        }
    }

    /// Why a tap may not be taken back.
    public enum UndoRefusal: Sendable, Hashable {
        /// The driver's undo window closed at the date; the dispatcher corrects it now.
        case windowPassed(closedAt: Date)
        /// A later tap rests on this one: undo that first.
        case laterFirst(TapAction, at: StopKind)
        /// Only the driver (her undo) and the office (a correction) take a tap back.
        case notForRiders
    }

    /// Why `actor` may not take `tap` back at `now`, with the taps `standing` on the ride; nil when
    /// she may. The driver undoes her own tap until `undoUntil`; the dispatcher corrects one at
    /// any time after (an audited correction). A later tap that rests on it comes first, for both.
    /// A shift that has ended is the service's to check.
    public static func undoRefusal(of tap: Tap, by actor: Actor, undoUntil: Date, standing: [Tap], now: Date) -> UndoRefusal? {
        switch actor {
        case .rider: return .notForRiders
        case .driver: if now > undoUntil { return .windowPassed(closedAt: undoUntil) }
        case .dispatcher: break
        }
        if let later = dependent(on: tap, standing: standing) { return .laterFirst(later.action, at: later.stop) }
        return nil
    }

    /// A standing tap that rests on `tap`: a later step at its stop, or the drop-off after a boarding.
    public static func dependent(on tap: Tap, standing: [Tap]) -> Tap? {
        switch (tap.stop, tap.action) {
        case (let stop, .arrived): standing.first { $0.stop == stop && $0.action.isOutcome }
        case (.pickup, .boarded): standing.first { $0.stop == .dropoff }
        default: nil
        }
    }
}
