import Foundation
import Testing
import VanDomain
import VanPostgres
import VanScheduler
import VanTestSupport
@testable import VanServices

/// A ride there and its way back, both or neither, with many riders at once (one van carrying
/// one rider at a time, promises exact).
@Suite("Booking a trip there and back")
struct TripBookingTests {
    func trip(_ f: BookingFixture, _ rider: Int, there: Date, back: Date) -> (NewRide, NewRide) {
        let out = f.request(rider, at: there)
        var way = f.request(rider, at: back)
        (way.pickup, way.dropoff) = (out.dropoff, out.pickup)
        way.returnOf = out.id
        return (out, way)
    }

    @Test func ridersRacingForTheLastSeatOfAReturnEachGetBothRidesOrNeither() async throws {
        let f = try await BookingFixture(oneRiderAtATime: true)
        let riders = 8
        let outcomes = try await withThrowingTaskGroup(of: (Int, TripOutcome).self) { group in
            for rider in 0..<riders {
                // Each one's ride there at its own time; every way back at 4 PM, where one rider fits.
                let (there, back) = trip(f, rider, there: f.monday(9, rider * 20), back: f.monday(16))
                group.addTask { (rider, try await f.booking.bookTrip(there, back, now: f.now)) }
            }
            return try await group.reduce(into: [Int: TripOutcome]()) { $0[$1.0] = $1.1 }
        }
        let winners = outcomes.filter { if case .booked = $0.value { true } else { false } }
        #expect(winners.count == 1, "\(outcomes)")
        for (rider, outcome) in outcomes where winners[rider] == nil {
            guard case .refused(.back, _) = outcome else { Issue.record("expected rider\(rider)'s way back refused, got \(outcome)"); continue }
        }
        let perRider = try await f.db.pool.withConnection { conn in
            try conn.query("SELECT net_id, count(*) AS n, count(return_of) AS backs FROM rides GROUP BY net_id").map {
                (try $0.decode(String.self, "net_id"), try $0.decode(Int.self, "n"), try $0.decode(Int.self, "backs"))
            }
        }
        #expect(perRider.count == 1 && perRider.first?.1 == 2 && perRider.first?.2 == 1, "\(perRider)")
        #expect(perRider.first?.0 == "rider\(try #require(winners.first?.key))")
        // Each loser's refused way back is kept once for the report; no ride there of theirs is.
        #expect(try await f.count("SELECT count(*) FROM booking_refusals") == riders - 1)
        await f.db.close()
    }

    @Test func aWayBackThatFitsIsBookedAfterTheRideThereAndNamesIt() async throws {
        let f = try await BookingFixture()
        let (there, back) = trip(f, 0, there: f.monday(9), back: f.monday(12))
        guard case .booked(let out, let way) = try await f.booking.bookTrip(there, back, now: f.now) else {
            Issue.record("expected both booked"); return
        }
        #expect(way.returnOf == out.id && out.returnOf == nil)
        #expect(way.pickup == out.dropoff)
        // Asked before the ride there may end: the earliest time and a suggestion from then, nothing booked.
        let (early, soon) = trip(f, 1, there: f.monday(10), back: f.monday(10, 5))
        guard case .backTooSoon(let earliest, let suggestion) = try await f.booking.bookTrip(early, soon, now: f.now) else {
            Issue.record("expected too soon"); return
        }
        #expect(earliest > f.monday(10, 5))
        #expect(try #require(suggestion).asked >= earliest)
        #expect(try await f.count() == 2)
        await f.db.close()
    }
}
