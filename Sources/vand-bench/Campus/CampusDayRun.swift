import Foundation
import VanDomain
import VanScheduler
import VanServices

/// Books a campus day's requests in arrival order through the real ``BookingService``, each at
/// its own arrival time as "now". A rider whose time is refused takes the nearest suggestion
/// inside the ADA ±1 hour window, if any, and books it; otherwise the ride is lost.
struct CampusDayRun {
    let database: Database
    let model: CampusModel
    let sites: [CampusFleet.Site]
    let timeZone: TimeZone

    /// What the riders got.
    struct Tally: Sendable {
        /// Requests made.
        var asked = 0
        /// Booked at the time asked.
        var servedAsAsked = 0
        /// Booked at a suggested time after a refusal.
        var suggestionsTaken = 0
        /// Refused with no suggestion inside ±1 hour (or refused again at the suggested time): lost.
        var refused = 0
        /// Of `refused`, those refused again at the suggestion they took (should stay 0).
        var refusedAtSuggestion = 0
        /// What each booked ride was promised, by ride id: the kind and the time the rider asked (or took).
        var promised: [UUID: (kind: RidePromise.Kind, asked: Date)] = [:]
        /// The booked rides whose rider asked to arrive by a time.
        var arriveBy: Set<UUID> = []
        /// Minutes between the time asked and the suggestion taken, by ride (booked at a suggestion only).
        var movedMinutes: [UUID: Double] = [:]
        /// Seconds spent booking.
        var seconds = 0.0

        /// Rides booked.
        var served: Int { servedAsAsked + suggestionsTaken }
    }

    /// Books every request, in order; those in `willCalls` (by index) with a will-call way back
    /// from the ride's drop-off ("I'll call when I'm ready").
    func book(_ requests: [CampusRequest], seed: UInt64, willCalls: Set<Int> = []) async throws -> Tally {
        let booking = VandServices.bench(database, timeZone: timeZone).booking
        let estimator = try await ServiceCalendarStore(pool: database.pool, timeZone: timeZone)
            .scheduler(around: requests.first?.asked ?? Date(timeIntervalSince1970: 0)).estimator
        var ids = SeededGenerator(seed: seed ^ 0x5EED)
        var tally = Tally()
        let started = ContinuousClock.now
        for request in requests {
            tally.asked += 1
            let asked = model.ask(request, from: sites[request.from].coordinate, to: sites[request.to].coordinate, estimator: estimator)
            let ride = try newRide(request, promise: asked.promise, at: asked.at, &ids)
            let willCall = willCalls.contains(request.index) ? ride.dropoff : nil
            switch try await booking.bookSeries([ride], now: request.arrival, willCall: willCall)[0] {
            case .booked:
                tally.servedAsAsked += 1
                tally.promised[ride.id] = (ride.promise, ride.pickupAt)
                if request.promise == .arriveBy { tally.arriveBy.insert(ride.id) }
            case .overlaps:
                // Not reached: each request has its own net ID (newRide).
                tally.refused += 1
            case .refused(let feasibility, _):
                guard let nearest = Self.nearestWithinADA(feasibility.suggestions) else {
                    tally.refused += 1
                    continue
                }
                let retry = try newRide(request, promise: asked.promise, at: nearest.asked, &ids)
                if case .booked = try await booking.bookSeries([retry], now: request.arrival, willCall: willCall)[0] {
                    tally.suggestionsTaken += 1
                    tally.promised[retry.id] = (retry.promise, retry.pickupAt)
                    tally.movedMinutes[retry.id] = abs(retry.pickupAt.timeIntervalSince(ride.pickupAt)) / 60
                    if request.promise == .arriveBy { tally.arriveBy.insert(retry.id) }
                } else {
                    tally.refused += 1
                    tally.refusedAtSuggestion += 1
                }
            }
        }
        let elapsed = ContinuousClock.now - started
        tally.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return tally
    }

    /// The suggestion a rider takes: the nearest to the asked time within the ADA window
    /// (the earlier one on a tie), or none.
    static func nearestWithinADA(_ suggestions: [Suggestion]) -> Suggestion? {
        suggestions.filter(\.withinADAWindow).min { abs($0.minutesFromRequested) < abs($1.minutesFromRequested) }
    }

    private func newRide(_ request: CampusRequest, promise: RidePromise.Kind, at time: Date, _ ids: inout SeededGenerator) throws -> NewRide {
        let from = sites[request.from], to = sites[request.to]
        return NewRide(
            // Each request books under its own net ID: the generator's riders ask more than once,
            // sometimes at overlapping times, which the booking rules refuse (nobody rides two vans
            // at once); the day measures how the vans serve the requests, not that rule.
            id: .timeOrdered(at: request.arrival, using: &ids), netID: try CampusFleet.netID(request.index),
            kind: request.booking == .onDemand ? .onDemand : .scheduled,
            pickup: RideEndpoint(address: from.name, coordinate: from.coordinate, placeID: from.placeID, placeName: from.name),
            dropoff: RideEndpoint(address: to.name, coordinate: to.coordinate, placeID: to.placeID, placeName: to.name),
            pickupAt: time, promise: promise, needsWheelchair: request.wheelchair,
            companions: model.companions(for: request)
        )
    }
}
