/// What a ride event says happened; the database trigger chooses it.
public enum RideEventKind: String, Sendable, CaseIterable, Codable {
    /// A ride was booked (by any writer).
    case created
    /// The dispatcher approved it.
    case approved
    /// The dispatcher rejected it.
    case rejected
    /// Its pickup time or van changed.
    case moved
    /// The rider cancelled it.
    case cancelledByRider = "cancelled_by_rider"
    /// The service (dispatcher) cancelled it.
    case cancelledByService = "cancelled_by_service"
    /// The trip took place.
    case completed
    /// The rider did not come.
    case noShow = "no_show"
    /// The 15-minute reminder fired.
    case reminder
    /// A stop's ETA passed the end of its promised window (once per ride; ``LateAlerts``).
    case late
    /// Any other change (a note, a place, a reopened ride).
    case updated
    /// The row was deleted.
    case deleted
    /// The van arrived at one of the ride's stops (a driver's tap; the payload's `road` says which).
    case arrived
    /// The rider got on board at the pickup (a driver's tap).
    case boarded
    /// A driver undid a tap within its two minutes (the payload's `road` is the undone tap).
    case tapUndone = "tap_undone"
}
