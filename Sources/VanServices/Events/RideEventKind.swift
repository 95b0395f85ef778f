/// What a ride event says happened; the database trigger chooses it.
public enum RideEventKind: String, Sendable, CaseIterable, Codable {
    /// A ride was booked (by any writer).
    case created
    /// The dispatcher approved it.
    case approved
    /// The dispatcher rejected it.
    case rejected
    /// Its promise changed (a new time, whatever the van).
    case moved
    /// It was put on another van, its promise unchanged (the rider hears it once her reminder went out).
    case reassigned
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
    /// A stop's ETA ran late against its promise (``Lateness``): raised, or raised again (``LateAlerts``).
    case late
    /// Any other change (a note, a place, a reopened ride).
    case updated
    /// The row was deleted.
    case deleted
    /// The van arrived at one of the ride's stops (a driver's tap; the payload's `road` says which).
    case arrived
    /// The rider got on board at the pickup (a driver's tap).
    case boarded
    /// A driver undid a tap within her undo window, or a dispatcher corrected it later (the payload's `road` is the undone tap).
    case tapUndone = "tap_undone"
    /// The no-show policy proposed a suspension: the written notice (the payload's `standing`).
    case suspensionNotice = "suspension_notice"
    /// The rider appealed a proposed suspension; it is on hold (the payload's `standing`).
    case appealFiled = "appeal_filed"
    /// The office decided an appeal: upheld or overturned, with its reasons (the payload's `standing`).
    case suspensionDecided = "suspension_decided"
}
