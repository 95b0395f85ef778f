import Foundation
import Testing
import VanTestSupport
@testable import VanServices
import VanPostgres

@Suite("The 15-minute reminder: exactly once, on time, also late approvals")
struct ReminderTests {
    @Test func firesOnceAtItsDueTimeAndNeverAgainNotAfterARestart() async throws {
        let f = try await EventFixture()
        let ride = try await f.insertRide(pickupIn: 40, status: "approved")
        let loop = f.loop()
        // Not yet due; the loop knows when it will be (no polling).
        let first = try await loop.runOnce(now: f.now)
        #expect(first.reminded == 0)
        #expect(first.nextDue == f.now.addingTimeInterval(25 * 60))
        f.clock.advance(by: 25 * 60 - 1)
        #expect(try await loop.runOnce(now: f.now).reminded == 0)
        f.clock.advance(by: 1)
        #expect(try await loop.runOnce(now: f.now).reminded == 1)
        #expect(try await loop.runOnce(now: f.now).reminded == 0)
        // A restarted process (a new loop) does not remind again.
        f.clock.advance(by: 60)
        #expect(try await f.loop().runOnce(now: f.now).reminded == 0)
        #expect(try await f.kinds(ride).filter { $0 == "reminder" }.count == 1)
        #expect(try await f.inbox("ann1") == ["Your van arrives in about 15 minutes at SCL."])
        await f.db.close()
    }

    @Test func twoLoopsRemindEachRideExactlyOnce() async throws {
        let f = try await EventFixture()
        for index in 0..<60 {
            try await f.insertRide(rider: index % 2 == 0 ? "ann1" : "bob2", pickupIn: 5 + Double(index) * 0.1, status: "approved", van: nil)
        }
        let a = f.loop(worker: "a"), b = f.loop(worker: "b")
        let now = f.now
        let (ra, rb) = try await (a.runOnce(now: now), b.runOnce(now: now))
        #expect(ra.reminded + rb.reminded == 60)
        #expect(try await f.count("SELECT count(*) FROM ride_events WHERE kind = 'reminder'") == 60)
        #expect(try await f.count("SELECT count(DISTINCT ride_id) FROM ride_events WHERE kind = 'reminder'") == 60)
        #expect(try await f.count("SELECT count(*) FROM notifications") == 60)
        await f.db.close()
    }

    @Test func aLateApprovalIsRemindedAtOnce() async throws {
        let f = try await EventFixture()
        let ride = try await f.insertRide(pickupIn: 5)
        let loop = f.loop()
        #expect(try await loop.runOnce(now: f.now).reminded == 0)  // pending: no reminder
        try await f.sql("UPDATE rides SET status = 'approved' WHERE id = \(ride)")
        #expect(try await loop.runOnce(now: f.now).reminded == 1)
        let inbox = try await f.inbox("ann1")
        #expect(inbox.count == 2)
        #expect(inbox.first?.hasSuffix("is approved.") == true)
        #expect(inbox.last == "Your van arrives in about 5 minutes at SCL.")
        // A ride whose pickup has passed is not reminded.
        let past = try await f.insertRide(pickupIn: -1, status: "approved", van: 2)
        #expect(try await loop.runOnce(now: f.now).reminded == 0)
        #expect(try await f.kinds(past) == ["created"])
        await f.db.close()
    }
}
