import Foundation
import VanDomain

extension Scheduler {
    /// The pickup times `t` with `start <= t < end`, on the `step` grid, at which a typical ride
    /// could be booked on some van, merged into intervals (each from its first feasible time to
    /// its last), in order.
    ///
    /// A typical ride has unknown ends (so every leg to and from it is the estimator's
    /// `unknownDeadhead`, and its own trip `unknownLegDuration`), and is placed exactly as
    /// ``check(_:vans:rides:)`` places a booking: shared with other riders where seats,
    /// windows and ride-time limits allow, inside service hours and off closures.
    public func availability(
        from start: Date, to end: Date, wheelchair: Bool, vans: [Van], rides: [BookedRide], notBefore: Date? = nil
    ) -> [DateInterval] {
        guard start < end, step.isFinite, step > 0 else { return [] }
        var probe = self
        probe.searchWindow = 0
        var intervals: [DateInterval] = []
        var time = (start.timeIntervalSince1970 / step).rounded(.up) * step
        while time < end.timeIntervalSince1970 {
            let at = Date(timeIntervalSince1970: time)
            let request = RideRequest(pickup: nil, dropoff: nil, wheelchair: wheelchair, pickupAt: at, notBefore: notBefore)
            if (notBefore.map { at >= $0 } ?? true), probe.check(request, vans: vans, rides: rides).isFeasible {
                if let last = intervals.last, last.end.timeIntervalSince1970 + step >= time {
                    intervals[intervals.count - 1] = DateInterval(start: last.start, end: at)
                } else {
                    intervals.append(DateInterval(start: at, duration: 0))
                }
            }
            time += step
        }
        return intervals
    }

    /// ``availability(from:to:wheelchair:vans:rides:notBefore:)`` for the local day `date` in the
    /// service time zone, every five minutes.
    public func availability(
        on date: LocalDate, wheelchair: Bool, vans: [Van], rides: [BookedRide], notBefore: Date? = nil
    ) -> [DateInterval] {
        let day = date.interval(in: hours.timeZone)
        var coarse = self
        coarse.step = 300
        return coarse.availability(from: day.start, to: day.end, wheelchair: wheelchair, vans: vans, rides: rides, notBefore: notBefore)
    }
}
