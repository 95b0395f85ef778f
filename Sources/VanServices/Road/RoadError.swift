import Foundation
import VanDomain

/// Why a road action was refused; nothing changed. Each says what to do instead. The HTTP layer
/// turns these into problem+json in one place (vand/Problem+Errors.swift), the CLI into one line.
public enum RoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The account is not a driver's (shifts need one; the database says the same).
    case notADriver(NetID)
    /// No van with that id or name, or it is retired.
    case unknownVan(String)
    /// The van already has an open shift, by the named driver.
    case vanHasShift(van: String)
    /// The driver already has an open shift, on the named van.
    case driverHasShift(van: String)
    /// The driver has no open shift (start one first).
    case noOpenShift
    /// The van has no open shift (for `vanadmin shifts end`).
    case vanHasNoShift(van: String)
    /// The ride is not on the driver's van's run today (or does not exist).
    case notOnRun
    /// The action cannot be tapped at that kind of stop (e.g. dropped off at a pickup).
    case actionDoesNotFit(TapAction, StopKind)
    /// The step before this one has not been tapped (e.g. boarded before arrived).
    case needsEarlier(TapAction, before: TapAction, at: StopKind)
    /// The stop already has another outcome (e.g. no-show when the rider boarded).
    case stopHasOutcome(TapAction)
    /// The ride is not approved (pending, or ended otherwise): the dispatcher decides it first.
    case rideNotActive(RideStatus)
    /// A no-show before the van waited the set time; allowed from the date.
    case noShowTooEarly(allowedFrom: Date)
    /// A no-show after the van arrived later than the pickup window: the rider cannot be held to it.
    case arrivedAfterWindow(windowEnd: Date)
    /// The tap key was already used for another stop or action.
    case tapKeyReused
    /// No such tap of this driver's.
    case noSuchTap
    /// The tap's shift has ended (by the driver or the dispatcher), so the driver can no longer undo it.
    case shiftEnded
    /// The undo window (120 s) has passed.
    case undoWindowPassed(closedAt: Date)
    /// A later tap at the same stop stands on this one; undo that first.
    case undoLaterFirst(TapAction)
    /// Putting the ride back on the route breaks a rule the route check holds.
    case cannotRestore(String)
    /// The position is for a van this driver is not on a shift with.
    case notYourVan
    /// The tracker token is not this van's.
    case trackerNotForVan
    /// A fix's time lies in the future beyond the allowed clock skew.
    case fixInFuture
    /// A fix's time is older than the staleness setting: the position would be unknown at once.
    case fixTooOld(staleAfter: TimeInterval)

    /// ``description`` with its times in the service zone as people read them ("from 10:42 AM",
    /// "until 10:44 AM"), where the description has to name an instant without a zone.
    public func sentence(_ clock: ServiceTime) -> String {
        switch self {
        case .noShowTooEarly(let from):
            "a no-show is allowed once the van has waited the set time, from \(clock.text(Self.wholeMinute(from), .clockTime))"
        case .undoWindowPassed(let closedAt):
            "a tap can be undone only until \(clock.text(closedAt, .clockTime)), the end of its undo window; tell the dispatcher"
        default:
            description
        }
    }

    /// `date` rounded up to its minute (a time read out loud never comes before the instant).
    static func wholeMinute(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.up) * 60)
    }

    /// A short English sentence, free of secrets, saying what to do.
    public var description: String {
        switch self {
        case .notADriver(let netID): "\(netID) is not a driver account; add drivers with `vanadmin drivers add`"
        case .unknownVan(let van): "there is no active van \(van); see `vanadmin vans list`"
        case .vanHasShift(let van): "\(van) already has a driver on shift; the dispatcher can end that shift with `vanadmin shifts end`"
        case .driverHasShift(let van): "you are already on shift on \(van); end that shift first"
        case .noOpenShift: "you have no open shift; start one on your van first"
        case .vanHasNoShift(let van): "\(van) has no open shift"
        case .notOnRun: "that stop is not on your van's run today"
        case .actionDoesNotFit(let action, let stop): "\"\(action.phrase)\" cannot be tapped at a \(stop == .pickup ? "pickup" : "drop-off")"
        case .needsEarlier(let action, let before, let stop):
            "tap \"\(before.phrase)\" at the \(stop == .pickup ? "pickup" : "drop-off") before \"\(action.phrase)\""
        case .stopHasOutcome(let outcome): "this stop is already marked \(outcome.phrase); undo that first if it was a mistake"
        case .rideNotActive(let status): "the ride is \(status.rawValue.replacingOccurrences(of: "_", with: "-")), not approved; ask the dispatcher"
        case .noShowTooEarly(let from): "a no-show is allowed once the van has waited the set time, from \(from.formatted(.iso8601))"
        case .arrivedAfterWindow: "the van arrived after the pickup window, so the rider cannot be marked a no-show; call the dispatcher"
        case .tapKeyReused: "that tap_key was already used for another tap; send a new uuid for each tap"
        case .noSuchTap: "there is no such tap of yours"
        case .shiftEnded: "the shift this tap was made on has ended, so it can no longer be undone; tell the dispatcher"
        case .undoWindowPassed: "a tap can be undone only within the undo window after it; tell the dispatcher"
        case .undoLaterFirst(let later): "undo \"\(later.phrase)\" at this stop first"
        case .cannotRestore(let why): "the ride cannot be put back on the van's route: \(why)"
        case .notYourVan: "you may post positions only for the van of your open shift"
        case .trackerNotForVan: "this tracker token is for another van"
        case .fixInFuture: "the position's time is in the future; send the time the fix was taken"
        case .fixTooOld(let stale):
            "the position's time is more than \(Int(stale)) seconds ago, when a position is stale; send fixes as they are taken"
        }
    }
}
