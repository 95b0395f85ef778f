import Foundation
import VanDomain

/// An edit of a series as typed (the API's JSON, the web form, vanadmin's options); checked by
/// ``SeriesService`` into a ``SeriesEdit``. Field names in errors are the API's.
public struct SeriesEditRequest: Sendable, Hashable {
    /// `one` (that date's ride only) or `from` (every ride from that date on, and the template).
    public var scope: String?
    /// The date, `YYYY-MM-DD`.
    public var date: String?
    /// A new local time `HH:MM`, if it changes.
    public var time: String?
    /// `pickup` or `arrive_by`, if it changes.
    public var promise: String?
    /// A new pickup, if it changes.
    public var pickup: PlaceMatcher.Input?
    /// A new drop-off, if it changes.
    public var dropoff: PlaceMatcher.Input?
    /// Her choice for each date that did not fit: date → `skip`, `keep` or `HH:MM`.
    public var choices: [String: String]

    /// An edit as sent.
    public init(
        scope: String?, date: String?, time: String? = nil, promise: String? = nil, pickup: PlaceMatcher.Input? = nil,
        dropoff: PlaceMatcher.Input? = nil, choices: [String: String] = [:]
    ) {
        self.scope = scope
        self.date = date
        self.time = time
        self.promise = promise
        self.pickup = pickup
        self.dropoff = dropoff
        self.choices = choices
    }
}

/// Reading the parts of a series request, every problem at once.
enum SeriesFields {
    /// A required date (`YYYY-MM-DD`) not before `today`.
    static func date(_ text: String?, field: String, today: LocalDate, problems: inout [ValidationError]) -> LocalDate? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            problems.append(ValidationError(field: field, reason: "is required: a date YYYY-MM-DD"))
            return nil
        }
        do throws(ValidationError) {
            let day = try LocalDate(text, field: field)
            if day < today {
                problems.append(ValidationError(field: field, reason: "is in the past; choose today or later"))
                return nil
            }
            return day
        } catch {
            problems.append(error)
            return nil
        }
    }

    /// An optional local time of day (`HH:MM`, not 24:00).
    static func time(_ text: String?, field: String, problems: inout [ValidationError]) -> LocalTime? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        do throws(ValidationError) {
            let time = try LocalTime(text, field: field)
            if time.isEndOfDay { throw ValidationError(field: field, reason: "must be a time of day before 24:00") }
            return time
        } catch {
            problems.append(error)
            return nil
        }
    }

    /// The choices by date: `choices.YYYY-MM-DD` names a bad one.
    static func choices(_ raw: [String: String], problems: inout [ValidationError]) -> [LocalDate: SeriesChoice] {
        var choices: [LocalDate: SeriesChoice] = [:]
        for (key, value) in raw.sorted(by: { $0.key < $1.key }) {
            let field = "choices.\(key.prefix(20))"
            do throws(ValidationError) {
                let day = try LocalDate(key, field: field)
                let choice = try SeriesChoice(value, field: field)
                if case .at(let time) = choice, time.isEndOfDay {
                    throw ValidationError(field: field, reason: "must be a time of day before 24:00")
                }
                choices[day] = choice
            } catch {
                problems.append(error)
            }
        }
        return choices
    }
}
