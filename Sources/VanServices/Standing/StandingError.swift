import Foundation
import VanDomain

/// Why a request of the no-show policy was refused; each says what to do instead.
public enum StandingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The policy's numbers are wrong (each problem names its option).
    case invalidPolicy([ValidationError])
    /// No ride has that reference or id.
    case unknownRide(String)
    /// Only a no-show or a late cancellation can be excused.
    case notMissed(ref: String, status: RideStatus)
    /// The trip was excused already.
    case alreadyExcused(ref: String)
    /// A reason or an appeal's text is missing or too long.
    case text(field: String, reason: String)
    /// She has no case she may appeal now.
    case nothingToAppeal(netID: String)
    /// The time to appeal is over.
    case appealClosed(netID: String, appealBy: LocalDate)
    /// No case has that number.
    case unknownCase(Int64)
    /// The case has no appeal waiting for a decision.
    case notAppealed(id: Int64, status: Suspension.Status)

    public var description: String {
        switch self {
        case .invalidPolicy(let problems): problems.map { "--\($0.field) \($0.reason)" }.joined(separator: "; ")
        case .unknownRide(let text): "no ride '\(text.escapingControlCharacters)'; give its reference (K7M-3QX) or id"
        case .notMissed(let ref, let status):
            "ride \(ref) is \(status.rawValue.replacingOccurrences(of: "_", with: " ")), not a no-show or a late cancellation; only a missed trip is excused"
        case .alreadyExcused(let ref): "ride \(ref) is excused already"
        case .text(let field, let reason): "\(field) \(reason)"
        case .nothingToAppeal(let netID): "\(netID) has no proposed suspension to appeal"
        case .appealClosed(_, let appealBy): "the time to appeal ended on \(appealBy); call the office"
        case .unknownCase(let id): "no suspension case \(id); see `vanadmin appeals list`"
        case .notAppealed(let id, let status): "case \(id) is \(status.rawValue), with no appeal waiting for a decision"
        }
    }
}

/// The booking's refusal of a suspended rider: every booking path answers with it (the API's
/// 403 `suspended`, the web form, the phone booking, `vanadmin rides book`).
public struct RiderSuspended: Error, Sendable, Equatable, CustomStringConvertible {
    /// The case that blocks the ride.
    public let suspension: Suspension
    /// The zone its dates are read in.
    public let timeZone: TimeZone

    /// The sentence she reads, naming the dates and the office's number.
    public func sentence(hotline: String?) -> String {
        suspension.bookingRefusal(ServiceTime(timeZone: timeZone), hotline: hotline)
    }

    public var description: String { sentence(hotline: nil) }
}
