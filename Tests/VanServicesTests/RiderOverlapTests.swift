import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres
import VanScheduler

@Suite("A rider holds no two rides whose times overlap")
struct RiderOverlapTests {
    @Test func aRideInsideTheRidersOwnRidesSpanIsRefusedNamingThatRide() async throws {
        // Three vans and the default 15-minute window: a van is free at every time asked here.
        let f = try await BookingFixture(vans: [("Van 1", 8, 1), ("Van 2", 8, 1), ("Van 3", 8, 1)], oneRiderAtATime: false)
        guard case .booked(let first) = try await f.booking.book(f.request(0, at: f.monday(16)), now: f.now) else { Issue.record("setup"); return }
        let span = first.promise.riderSpan(maxRideTime: first.maxRideTime)
        #expect(span.start == f.monday(16) && span.end == f.monday(16, 15).addingTimeInterval(first.maxRideTime))
        let inside = try await f.booking.book(f.request(0, at: span.end.addingTimeInterval(-60)), now: f.now)
        guard case .overlaps(let other) = inside else { Issue.record("expected an overlap, got \(inside)"); return }
        #expect(other.id == first.id)
        #expect(inside.refusalCode == BookingOutcome.overlapsCode)
        let words = try #require(inside.sentence(clock: ServiceTime(timeZone: f.zone)))
        #expect(words.hasPrefix("You already have a ride then: \(first.ref.rawValue), Mon Nov 23 at 4:00 PM from "))
        // An arrival whose window starts as her ride's span ends still overlaps it: she may board a whole ride before.
        var arrival = f.request(0, at: span.end.addingTimeInterval(900))
        arrival.promise = .arriveBy
        guard case .overlaps = try await f.booking.book(arrival, now: f.now) else { Issue.record("the arrival overlaps"); return }
        // Another rider at that time, and this rider once her ride is surely over, are booked.
        guard case .booked = try await f.booking.book(f.request(1, at: span.end.addingTimeInterval(-60)), now: f.now),
            case .booked = try await f.booking.book(f.request(0, at: span.end), now: f.now)
        else { Issue.record("expected bookings"); return }
        // A series: the occurrence over her ride is refused like any other conflict, the next week's is booked.
        let series = UUID.timeOrdered(at: f.now)
        var weekly = [f.request(0, at: f.monday(16, 10)), f.request(0, at: f.monday(16, 10).addingTimeInterval(7 * 86_400))]
        for index in weekly.indices { weekly[index].seriesID = series }
        let outcomes = try await f.booking.bookSeries(weekly, now: f.now)
        guard case .overlaps = outcomes[0], case .booked = outcomes[1] else { Issue.record("got \(outcomes)"); return }
        #expect(try await f.count("SELECT count(*) FROM rides WHERE net_id = 'rider0'") == 3)
        await f.db.close()
    }

    @Test func manyBookingsOfOneRiderAtOnceBookOne() async throws {
        let f = try await BookingFixture(vans: (1...6).map { ("Van \($0)", 8, 1) }, oneRiderAtATime: false)
        // 24 requests of one rider, a minute apart (each pair overlaps), on a fleet with room for every one of them.
        let outcomes = try await withThrowingTaskGroup(of: BookingOutcome.self) { group in
            for minute in 0..<24 {
                let ride = f.request(0, at: f.monday(16, minute))
                group.addTask { try await f.booking.book(ride, now: f.now) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let booked = outcomes.filter { if case .booked = $0 { true } else { false } }
        let overlaps = outcomes.filter { if case .overlaps = $0 { true } else { false } }
        #expect(booked.count == 1 && overlaps.count == 23, "\(outcomes.map { $0.refusalCode ?? "booked" })")
        #expect(try await f.count("SELECT count(*) FROM rides WHERE net_id = 'rider0'") == 1)
        await f.db.close()
    }
}
