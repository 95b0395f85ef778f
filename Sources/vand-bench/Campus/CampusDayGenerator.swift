import Foundation
import VanDomain
import VanServices

/// A seeded, pure generator of a day of campus ride requests between the demo places
/// (``DemoData/places``): rush peaks around class changes, meals, clinic appointments,
/// errands and late returns from the libraries; some wheelchair riders and companions; some
/// arrive-by requests; booked the day before, the same day, or on demand. The same seed and
/// size give the same day on every run and machine.
struct CampusDayGenerator {
    /// The service day the rides are for (a Tuesday: weekday service runs all day).
    var day: LocalDate
    /// The service's time zone.
    var timeZone: TimeZone
    /// How many requests.
    var requests: Int
    /// The random seed.
    var seed: UInt64
    /// The on-demand lead: a ride-now pickup is this long after the request.
    var onDemandLead: TimeInterval

    /// A generator for `requests` requests on `day`.
    init(
        day: LocalDate = CampusDayGenerator.defaultDay, timeZone: TimeZone, requests: Int, seed: UInt64,
        onDemandLead: TimeInterval = BookingPolicy(serviceCenter: BookingPolicy.yaleCenter).onDemandLead
    ) {
        self.day = day
        self.timeZone = timeZone
        self.requests = requests
        self.seed = seed
        self.onDemandLead = onDemandLead
    }

    /// Tuesday 1 December 2026 (day 20,788 since 1970-01-01; a day number cannot be invalid).
    static let defaultDay = LocalDate(dayNumber: 20_788)

    /// Class periods: start (minutes after midnight) and length in minutes.
    static let classes: [(start: Int, minutes: Int)] = [(540, 75), (630, 75), (695, 50), (780, 75), (870, 75), (960, 75)]

    /// The demo places by what riders go there for (indices into ``DemoData/places``).
    enum Places {
        static let sml = 0, sas = 1, sss = 2, scl = 3, davenport = 4, gym = 5, health = 6, bass = 7, commons = 8, kline = 9,
            hospital = 10, station = 11
        static let count = DemoData.places.count
        static let classrooms = [sss, scl, kline]
        static let libraries = [sml, bass]
        /// Where a rider comes from before class or goes after it, with weights.
        static let around: [(Int, Double)] = [(davenport, 4), (sml, 2), (bass, 2), (commons, 2), (gym, 1), (sas, 1), (health, 1)]
    }

    /// The requests in arrival order (the order they are booked in).
    func generate() -> [CampusRequest] {
        var rng = SeededGenerator(seed: seed)
        var made: [CampusRequest] = []
        made.reserveCapacity(requests)
        for index in 0..<requests {
            made.append(request(index, riders: riders, &rng))
        }
        return made.sorted { $0.arrival != $1.arrival ? $0.arrival < $1.arrival : $0.index < $1.index }
    }

    /// How many riders ask (numbered from 0; some ask more than once).
    var riders: Int { max(4, requests * 2 / 5) }

    /// Midnight starting `day`, local time.
    var midnight: Date { day.interval(in: timeZone).start }

    private func request(_ index: Int, riders: Int, _ rng: inout SeededGenerator) -> CampusRequest {
        let rider = Int.random(in: 0..<riders, using: &rng)
        let wheelchair = rider % 8 == 0  // one rider in eight uses a wheelchair
        let companions = pick([(0, 0.80), (1, 0.15), (2, 0.05)], &rng)
        var trip = makeTrip(&rng)
        // Riders ask for round times when booking ahead; a ride now is now plus the lead.
        let booking: CampusRequest.Booking =
            trip.promise == .arriveBy
            ? pick([(.dayBefore, 0.75), (.sameDay, 0.25)], &rng)
            : pick([(.dayBefore, 0.55), (.sameDay, 0.15), (.onDemand, 0.30)], &rng)
        let arrival: Date
        switch booking {
        case .dayBefore:
            arrival = midnight.addingTimeInterval(-86_400 + Double.random(in: 8 * 3_600...23 * 3_600, using: &rng).rounded())
            trip.minute = (trip.minute / 5).rounded() * 5
        case .sameDay:
            trip.minute = (trip.minute / 5).rounded() * 5
            arrival = at(trip.minute).addingTimeInterval(-Double.random(in: 3_600...5 * 3_600, using: &rng).rounded())
        case .onDemand:
            arrival = at(trip.minute).addingTimeInterval(-onDemandLead - Double.random(in: 0...120, using: &rng).rounded())
        }
        let asked = booking == .onDemand ? arrival.addingTimeInterval(onDemandLead) : at(trip.minute)
        return CampusRequest(
            index: index, rider: rider, arrival: arrival, asked: asked, promise: trip.promise, booking: booking,
            from: trip.from, to: trip.to, wheelchair: wheelchair, companions: companions)
    }

    /// Where and when: a trip for a purpose of the day.
    private struct Trip {
        var from: Int
        var to: Int
        var minute: Double  // of the day
        var promise: RidePromise.Kind
    }

    private enum Purpose { case toClass, fromClass, meal, clinic, errand, lateReturn }

    private func makeTrip(_ rng: inout SeededGenerator) -> Trip {
        let purpose = pick([(Purpose.toClass, 0.30), (.fromClass, 0.25), (.meal, 0.13), (.clinic, 0.10), (.errand, 0.14), (.lateReturn, 0.08)], &rng)
        switch purpose {
        case .toClass:
            let period = Self.classes[Int.random(in: 0..<Self.classes.count, using: &rng)]
            let to = Places.classrooms[Int.random(in: 0..<Places.classrooms.count, using: &rng)]
            let from = other(than: to, pick(Places.around + Places.classrooms.map { ($0, 1.0) }, &rng), &rng)
            if Double.random(in: 0..<1, using: &rng) < 0.4 {
                return Trip(from: from, to: to, minute: Double(period.start) - Double.random(in: 0...5, using: &rng), promise: .arriveBy)
            }
            return Trip(from: from, to: to, minute: Double(period.start) - Double.random(in: 12...30, using: &rng), promise: .pickup)
        case .fromClass:
            let period = Self.classes[Int.random(in: 0..<Self.classes.count, using: &rng)]
            let from = Places.classrooms[Int.random(in: 0..<Places.classrooms.count, using: &rng)]
            let to = other(than: from, pick(Places.around + Places.classrooms.map { ($0, 1.0) }, &rng), &rng)
            return Trip(from: from, to: to, minute: Double(period.start + period.minutes) + Double.random(in: 0...10, using: &rng), promise: .pickup)
        case .meal:
            let lunch = Double.random(in: 0..<1, using: &rng) < 0.6
            let minute = lunch ? Double.random(in: 700...770, using: &rng) : Double.random(in: 1_035...1_140, using: &rng)
            let elsewhere = other(than: Places.commons, pick(Places.around + Places.classrooms.map { ($0, 2.0) }, &rng), &rng)
            let going = Double.random(in: 0..<1, using: &rng) < 0.6
            return Trip(from: going ? elsewhere : Places.commons, to: going ? Places.commons : elsewhere, minute: minute, promise: .pickup)
        case .clinic:
            let to = Double.random(in: 0..<1, using: &rng) < 0.7 ? Places.health : Places.hospital
            let from = other(than: to, pick(Places.around, &rng), &rng)
            let appointment = Double(Int.random(in: 34...67, using: &rng) * 15)  // 8:30 to 16:45, on the quarter hour
            if Double.random(in: 0..<1, using: &rng) < 0.5 {
                return Trip(from: from, to: to, minute: appointment, promise: .arriveBy)
            }
            return Trip(from: to, to: from, minute: appointment + Double.random(in: 40...90, using: &rng), promise: .pickup)
        case .errand:
            let from = Int.random(in: 0..<Places.count, using: &rng)
            let to = other(than: from, Int.random(in: 0..<Places.count, using: &rng), &rng)
            return Trip(from: from, to: to, minute: Double.random(in: 450...1_410, using: &rng), promise: .pickup)
        case .lateReturn:
            let from = Places.libraries[Int.random(in: 0..<2, using: &rng)]
            let to = pick([(Places.davenport, 3.0), (Places.station, 1.0)], &rng)
            return Trip(from: from, to: to, minute: Double.random(in: 1_260...1_425, using: &rng), promise: .pickup)
        }
    }

    /// `candidate`, unless it is `place`: then any other place.
    private func other(than place: Int, _ candidate: Int, _ rng: inout SeededGenerator) -> Int {
        guard candidate == place else { return candidate }
        return (place + Int.random(in: 1..<Places.count, using: &rng)) % Places.count
    }

    /// `minute` minutes after midnight on `day`, to the second.
    private func at(_ minute: Double) -> Date {
        midnight.addingTimeInterval((minute * 60).rounded())
    }

    private func pick<T>(_ weighted: [(T, Double)], _ rng: inout SeededGenerator) -> T {
        let total = weighted.reduce(0) { $0 + $1.1 }
        var roll = Double.random(in: 0..<total, using: &rng)
        for (value, weight) in weighted {
            if roll < weight { return value }
            roll -= weight
        }
        return weighted[weighted.count - 1].0
    }
}
