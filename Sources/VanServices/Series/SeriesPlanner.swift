import Foundation
import VanDomain
import VanPostgres

/// Books a series' dates anew inside a change's transaction: each date's old ride is cancelled
/// first (so the new one is planned with the old excluded: her own overlap and the van's seat
/// alike), then every new occurrence is booked on its own merits through ``BookingService``'s
/// planning (the van-day locks, the suspension check). Closed days are never booked; a date she
/// chose to skip or keep is not planned. Whether to commit is the caller's.
struct SeriesPlanner {
    /// One date a change touches, and its ride before the change (none for a held date).
    struct Target {
        let date: LocalDate
        let was: Ride?
    }

    let series: StandingSeries
    /// What each new occurrence is booked from.
    let template: SeriesTemplate
    let choices: [LocalDate: SeriesChoice]
    let timeZone: TimeZone
    let now: Date
    let autoApprove: Bool
    /// The office's will-call wait (``BookingPolicy/willCallMaxWait``): the room a booking leaves them.
    let willCallWait: TimeInterval
    /// The office acting for her, if it is.
    let bookedBy: String?

    /// Plans `targets` and answers each; `reason` is written on each replaced ride.
    func run(_ targets: [Target], reason: String, _ conn: PGConnection) throws -> [SeriesDateAnswer] {
        guard let first = targets.map(\.date).min(), let last = targets.map(\.date).max() else { return [] }
        let closed = try SeriesStore.closures(from: first, to: last, conn)
        var answers: [SeriesDateAnswer?] = Array(repeating: nil, count: targets.count)
        var replaced: [Ride] = []
        var booking: [(index: Int, ride: NewRide)] = []
        for (index, target) in targets.enumerated() {
            let choice = choices[target.date]
            if let reason = closed[target.date] {
                answers[index] = SeriesDateAnswer(date: target.date, asked: nil, was: target.was, result: .closed(reason: reason), choice: choice)
                continue
            }
            switch choice {
            case .keep?:
                answers[index] = SeriesDateAnswer(date: target.date, asked: nil, was: target.was, result: .kept, choice: choice)
                continue
            case .skip?:
                if let was = target.was { replaced.append(was) }
                answers[index] = SeriesDateAnswer(date: target.date, asked: nil, was: target.was, result: .skipped, choice: choice)
                continue
            case .at(let time)?:
                booking.append((index, newRide(SeriesTemplate.instant(target.date, time, in: timeZone))))
            case nil:
                booking.append((index, newRide(template.asked(on: target.date, in: timeZone))))
            }
            if let was = target.was { replaced.append(was) }
        }
        try SeriesStore.cancel(replaced, reason: reason.isEmpty ? "changed" : reason, now: now, conn)
        let outcomes = try BookingService.bookAll(
            booking.map(\.ride), now: now, timeZone: timeZone, willCallWait: willCallWait, bookedBy: bookedBy, conn)
        for ((index, ride), outcome) in zip(booking, outcomes) {
            let target = targets[index]
            let result: SeriesDateAnswer.Result
            if case .booked(let booked) = outcome { result = .fits(booked) } else { result = .conflict(outcome) }
            answers[index] = SeriesDateAnswer(date: target.date, asked: ride.pickupAt, was: target.was, result: result, choice: choices[target.date])
        }
        return answers.compactMap { $0 }
    }

    /// An occurrence asked at `asked`, from the template.
    private func newRide(_ asked: Date) -> NewRide {
        NewRide(
            id: .timeOrdered(at: now), netID: series.netID, kind: .scheduled, pickup: template.pickup, dropoff: template.dropoff,
            pickupAt: asked, promise: template.promise, needsWheelchair: template.needsWheelchair, companions: template.companions,
            note: template.note, seriesID: series.id, status: autoApprove ? .approved : .pending)
    }
}
