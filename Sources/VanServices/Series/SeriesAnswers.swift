import Foundation
import VanDomain

/// A series as the rider's page shows it: the pattern and template, its holds, and its rides.
public struct SeriesDetail: Sendable {
    /// The pattern and template.
    public let series: StandingSeries
    /// Its holds, earliest first.
    public let holds: [SeriesHold]
    /// Its rides, whatever their status, soonest first.
    public let rides: [Ride]
    /// The pattern's closed days from today through its last date, with the office's reason.
    public let closedDays: [LocalDate: String?]
}

/// What one date of a series change comes to.
public struct SeriesDateAnswer: Sendable {
    /// What happens on the date.
    public enum Result: Sendable {
        /// The ride fits as asked (booked when the change was applied; as it would be, in a check).
        case fits(Ride)
        /// It does not fit: the scheduler's refusal with its suggestions, or her own ride in the way.
        case conflict(BookingOutcome)
        /// No ride that date, as she chose.
        case skipped
        /// The date's ride stays as it was, as she chose.
        case kept
        /// The service is closed that day: a series never books on a closed day.
        case closed(reason: String?)
    }

    /// The local date.
    public let date: LocalDate
    /// The time asked that day (nil when nothing is booked: skipped, kept, closed).
    public let asked: Date?
    /// The ride the change replaces, if the date had one.
    public let was: Ride?
    /// What happens.
    public let result: Result
    /// What she chose for the date, if she chose.
    public let choice: SeriesChoice?

    /// Whether the date still waits for her choice.
    public var isConflict: Bool {
        if case .conflict = result { true } else { false }
    }
}

/// The answer to a series change (an edit, or resuming a hold): each date it touches and what
/// becomes of it. Nothing changed unless ``applied``.
public struct SeriesChangeAnswer: Sendable {
    /// Whether the change was made (false for a check, and for an apply some date refused).
    public let applied: Bool
    /// The series, with its template as the change leaves it.
    public let series: StandingSeries
    /// The dates touched, in order.
    public let dates: [SeriesDateAnswer]

    /// The dates that do not fit and wait for her choice.
    public var conflicts: [SeriesDateAnswer] { dates.filter(\.isConflict) }
}

/// The answer to holding a series: the hold and the rides it cancelled.
public struct SeriesHoldAnswer: Sendable {
    /// The hold recorded.
    public let hold: SeriesHold
    /// The rides cancelled (now `cancelled`, reason `held: …`).
    public let cancelled: [Ride]
}

/// Why a series request was refused (bad input is ``InvalidFields``).
public enum SeriesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No such series among hers (or at all, for the office).
    case notFound
    /// The series has no such hold.
    case holdNotFound
    /// The hold was resumed already, or its dates are past.
    case holdNotOpen(id: Int64, resumed: Bool)

    public var description: String {
        switch self {
        case .notFound: "there is no such series among the rider's rides"
        case .holdNotFound: "the series has no such hold"
        case .holdNotOpen(let id, let resumed):
            resumed ? "hold \(id) was resumed already" : "hold \(id) is over: its dates are past"
        }
    }
}
