import Foundation
import VanDomain

extension Scheduler {
    /// A sentence for the rider explaining `feasibility` for a pickup `requested`, with times in
    /// `timeZone` (default: the service zone), e.g. "The van is occupied at 4:30 PM. Does 4:15 PM
    /// or 4:45 PM work?" or "The van does not run at 1:00 PM on Saturday. The nearest time is 6:00 PM."
    ///
    /// A suggestion on another local day than the request is followed by its weekday. When the rider
    /// asked to arrive by `requested` (`promise` `.arriveBy`), the times are arrival times and the
    /// sentence says so: "No van can get you there by 9:00 AM. Does 8:40 AM or 9:25 AM work?"
    public func sentence(for feasibility: Feasibility, requested: Date, promise: RidePromise.Kind = .pickup, timeZone: TimeZone? = nil) -> String {
        let zone = timeZone ?? hours.timeZone
        let clock = ServiceTime.formatter(.clockTime, zone)
        let weekday = ServiceTime.formatter(.weekday, zone)
        let requestedDay = LocalDate(containing: requested, in: zone)
        func label(_ date: Date) -> String {
            let time = clock.string(from: date)
            return LocalDate(containing: date, in: zone) == requestedDay ? time : "\(time) on \(weekday.string(from: date))"
        }

        switch feasibility {
        case .feasible(let assignment):
            return "The van can pick you up at \(label(assignment.pickupAt))."
        case .infeasible(let reason, let earlier, let later):
            let times = [earlier, later].compactMap { $0 }.map { label($0.asked) }
            let none = "Nothing is free within \(Self.phrase(forDuration: searchWindow)) of that time."
            switch reason {
            case .occupied:
                let offer = times.isEmpty ? none : "Does \(times.joined(separator: " or ")) work?"
                if promise == .arriveBy { return "No van can get you there by \(clock.string(from: requested)). \(offer)" }
                return "The van is occupied at \(clock.string(from: requested)). \(offer)"
            case .outsideServiceHours, .closed:
                let nearest =
                    switch times.count {
                    case 0: none
                    case 1: "The nearest time is \(times[0])."
                    default: "The nearest times are \(times.joined(separator: " and "))."
                    }
                if case .closed(let day) = reason {
                    let dayName = ServiceTime.formatter(.weekdayAndDate, zone).string(from: day.interval(in: zone).start)
                    return "The van does not run on \(dayName). \(nearest)"
                }
                return "The van does not run at \(clock.string(from: requested)) on \(weekday.string(from: requested)). \(nearest)"
            case .noWheelchairVan:
                return "No van with a wheelchair position is in service."
            case .noActiveVan:
                return "No van is in service."
            }
        }
    }

    /// "2 hours", "1 hour", "90 minutes".
    private static func phrase(forDuration seconds: TimeInterval) -> String {
        let minutes = Int((seconds / 60).rounded())
        if minutes % 60 == 0, minutes > 0 {
            return minutes == 60 ? "1 hour" : "\(minutes / 60) hours"
        }
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}
