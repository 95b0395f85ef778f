import Foundation
import Testing
import VanDomain
import VanTestSupport
@testable import VanServices
import VanPostgres

@Suite("Dispatch decisions name who acted")
struct DispatchServiceTests {
    @Test func eventsRecordTheRiderAndTheDispatcher() async throws {
        let f = try await BookingFixture()
        guard case .booked(let ride) = try await f.booking.book(f.request(3, at: f.monday(10)), now: f.now) else {
            Issue.record("booking failed"); return
        }
        let dispatch = DispatchService(pool: f.db.pool, timeZone: f.zone)
        let approved = try await dispatch.approve(ride.id.uuidString, actor: "dana", now: f.now)
        #expect(approved.status == .approved)
        let actors = try await f.db.pool.withConnection { conn in
            try conn.query("SELECT kind, payload->>'actor' FROM ride_events WHERE ride_id = \(ride.id) ORDER BY id").map {
                "\(try $0.decode(String.self, at: 0)):\(try $0.decode(String.self, at: 1))"
            }
        }
        #expect(actors == ["created:rider3", "approved:dana"])
        // A refused decision changes nothing and records nothing.
        await #expect(throws: DispatchService.DispatchError.self) {
            try await dispatch.reject(ride.id.uuidString, reason: "late", actor: "dana", now: f.now)
        }
        #expect(try await f.count("SELECT count(*) FROM audit_log WHERE action = 'ride.reject'") == 0)
        await f.db.close()
    }
}
