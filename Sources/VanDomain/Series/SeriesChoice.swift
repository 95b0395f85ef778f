import Foundation

/// What the rider chose for one date of a series change that did not fit as asked.
public enum SeriesChoice: Sendable, Hashable {
    /// No ride that date (an edit cancels the date's ride; a resume leaves it held).
    case skip
    /// Leave the date's ride as it was (an edit only).
    case keep
    /// Book it at this local time instead (a suggested time, usually).
    case at(LocalTime)

    /// Reads `skip`, `keep` or a local `HH:MM`; `field` names the date's choice in errors.
    public init(_ text: String, field: String) throws(ValidationError) {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "skip": self = .skip
        case "keep": self = .keep
        default:
            do throws(ValidationError) {
                self = .at(try LocalTime(text.trimmingCharacters(in: .whitespaces), field: field))
            } catch {
                throw ValidationError(field: field, reason: "must be skip, keep or a time HH:MM (a suggested time)")
            }
        }
    }

    /// `skip`, `keep` or `HH:MM`, as ``init(_:field:)`` reads it.
    public var text: String {
        switch self {
        case .skip: "skip"
        case .keep: "keep"
        case .at(let time): time.description
        }
    }
}

/// What a rider asks to change in a series: one date, or every date from one on (and the template).
public struct SeriesEdit: Sendable, Hashable {
    /// Which dates.
    public enum Scope: String, Sendable, Hashable, CaseIterable {
        /// The ride of ``SeriesEdit/date`` only.
        case one
        /// Every ride from ``SeriesEdit/date`` on, and the template.
        case from
    }

    /// One date, or from it on.
    public var scope: Scope
    /// The date.
    public var date: LocalDate
    /// A new local time, if it changes.
    public var time: LocalTime?
    /// Pickup or arrive-by, if it changes.
    public var promise: RidePromise.Kind?
    /// A new pickup, if it changes.
    public var pickup: RideEndpoint?
    /// A new drop-off, if it changes.
    public var dropoff: RideEndpoint?

    /// An edit.
    public init(
        scope: Scope, date: LocalDate, time: LocalTime? = nil, promise: RidePromise.Kind? = nil, pickup: RideEndpoint? = nil,
        dropoff: RideEndpoint? = nil
    ) {
        self.scope = scope
        self.date = date
        self.time = time
        self.promise = promise
        self.pickup = pickup
        self.dropoff = dropoff
    }

    /// Whether anything changes at all.
    public var changesSomething: Bool { time != nil || promise != nil || pickup != nil || dropoff != nil }

    /// `template` with this edit's changes.
    public func applied(to template: SeriesTemplate) -> SeriesTemplate {
        var next = template
        if let time { next.time = time }
        if let promise { next.promise = promise }
        if let pickup { next.pickup = pickup }
        if let dropoff { next.dropoff = dropoff }
        return next
    }

    /// Whether `date` is one of the dates this edit changes.
    public func covers(_ day: LocalDate) -> Bool {
        scope == .one ? day == date : day >= date
    }
}
