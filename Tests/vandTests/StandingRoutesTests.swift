import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// The rider's standing under the no-show policy through the real router: her record, her
/// appeal, and the booking's 403 `suspended` while a suspension blocks her (clock: Sunday
/// 2026-11-29 07:00 New York).
@Suite("The no-show policy's routes on the real router and a real database")
struct StandingRoutesTests {
    /// Three proven no-shows and one the van reached late, Nov 24–27; the policy's notice starts
    /// the suspension today (0 days' notice), so a booking tomorrow is blocked.
    static func suspended(_ w: BookingWorld) async throws -> NoShowStanding {
        let trips = MissedTrips(pool: w.f.database.pool)
        let zone = w.f.configuration.timeZone
        for day in 24...27 {
            let pickup = try LocalDate("2026-11-\(day)").interval(in: zone).start.addingTimeInterval(10 * 3_600)
            try await trips.noShow("ann1", at: pickup, vanLate: day == 25)
        }
        let standing = NoShowStanding(pool: w.f.database.pool, rule: NoShowRule(wait: 300), timeZone: zone, hotline: w.f.configuration.hotline)
        var policy = NoShowPolicy()
        policy.noticeDays = 0
        try await standing.setPolicy(policy, actor: "office")
        #expect(try await standing.review("ann1", now: w.f.clock.now) != nil)
        return standing
    }

    @Test func herRecordHerAppealAndTheBookingsRefusalWhileSuspended() async throws {
        let w = try await BookingWorld()
        w.f.clock.set(try LocalDate("2026-11-29").interval(in: w.f.configuration.timeZone).start.addingTimeInterval(7 * 3_600))
        _ = try await Self.suspended(w)
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let standing = try await client.get("/v1/me/standing", ann)
            #expect(standing.status == .ok, "\(standing.raw)")
            #expect(standing.body["counted"] as? Int == 3 && standing.body["scheduled_trips"] as? Int == 4)
            #expect(standing.body["suspended_now"] as? Bool == true)
            let entries = try #require(standing.body["entries"] as? [[String: Any]])
            #expect(entries.filter { $0["excluded_because"] as? String == "van_late" }.count == 1)
            let cases = try #require(standing.body["cases"] as? [[String: Any]])
            #expect(cases.first?["status"] as? String == "proposed" && cases.first?["can_appeal"] as? Bool == true)

            // Every booking refuses her while the suspension blocks the day: the dates and the number, nothing booked.
            let refused = try await client.book(ann, RideRoutesTests.sclToDavenport)
            #expect(refused.status == .forbidden)
            #expect((refused.body["type"] as? String)?.hasSuffix("suspended") == true, "\(refused.body)")
            let detail = refused.body["detail"] as? String ?? ""
            #expect(detail.contains("Sunday, November 29") && detail.contains("Saturday, December 5") && detail.contains("607-555-0100"), "\(detail)")
            #expect(try await w.rideCount() == 4)

            // An empty appeal is refused naming the field; her appeal puts it on hold and she books.
            let empty = try await client.execute(uri: "/v1/me/appeals", method: .post, headers: Wire.bearer(ann), body: Wire.body(["text": " "])) {
                ($0.status, Wire.object($0.body))
            }
            #expect(empty.0 == .unprocessableContent, "\(empty.1)")
            let appeal = try await client.execute(
                uri: "/v1/me/appeals", method: .post, headers: Wire.bearer(ann), body: Wire.body(["text": "I was in hospital on the 24th"])
            ) { ($0.status, Wire.object($0.body)) }
            #expect(appeal.0 == .created, "\(appeal.1)")
            #expect((appeal.1["cases"] as? [[String: Any]])?.first?["status"] as? String == "appealed")
            let booked = try await client.book(ann, RideRoutesTests.sclToDavenport)
            #expect(booked.status == .created, "\(booked.body)")
            let again = try await client.execute(uri: "/v1/me/appeals", method: .post, headers: Wire.bearer(ann), body: Wire.body(["text": "again"]))
            {
                ($0.status, Wire.object($0.body))
            }
            #expect(again.0 == .conflict && (again.1["type"] as? String)?.hasSuffix("nothing-to-appeal") == true, "\(again.1)")

            // Another rider sees only her own standing.
            let bob = try await client.get("/v1/me/standing", try await client.token("bob2", "correct horse battery"))
            #expect(bob.status == .ok && bob.body["counted"] as? Int == 0 && (bob.body["cases"] as? [Any])?.isEmpty == true)
            #expect(try await client.get("/v1/me/standing").status == .unauthorized)
        }
        await w.f.close()
    }
}
