import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

extension TestClientProtocol {
    /// POSTs `body` (JSON) to `uri` with her token: status and parsed answer.
    func post(_ uri: String, _ token: String, _ body: [String: Any?]) async throws -> (
        status: HTTPResponse.Status, body: [String: Any], type: String?
    ) {
        try await execute(uri: uri, method: .post, headers: Wire.bearer(token), body: Wire.body(body)) { response in
            (response.status, Wire.object(response.body), response.headers[.contentType])
        }
    }
}

/// A series' named routes on the real router and a real database (clock: Sunday 2026-11-29
/// 07:00 New York; one van carrying one rider at a time): ann1's series Mondays and Wednesdays
/// at 3 PM, Nov 30 to Dec 9 (four rides).
@Suite("A standing series' routes: show, edit, hold, resume")
struct SeriesRoutesTests {
    /// Books ann1's series through `POST /v1/rides`: its id.
    static func annsSeries(_ client: some TestClientProtocol, _ ann: String) async throws -> String {
        var series = RideRoutesTests.sclToDavenport
        series["repeat"] = ["weekdays": ["mon", "wed"], "until": "2026-12-09"]
        let booked = try await client.book(ann, series)
        guard booked.status == .created, let id = booked.body["series_id"] as? String else { throw TestFailure("series: \(booked)") }
        return id
    }

    /// Every row of rides, series and holds, as text.
    static func snapshot(_ w: BookingWorld) async throws -> String {
        try await w.f.database.pool.withConnection { conn in
            try conn.query(
                """
                SELECT (SELECT coalesce(string_agg(r::text, '|' ORDER BY id), '') FROM rides r) || '#'
                    || (SELECT coalesce(string_agg(s::text, '|' ORDER BY id), '') FROM series s) || '#'
                    || (SELECT coalesce(string_agg(h::text, '|' ORDER BY id), '') FROM series_holds h) AS all_rows
                """
            ).first!.decode(String.self, "all_rows")
        }
    }

    @Test func showEditCheckApplyHoldAndResume() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            let id = try await Self.annsSeries(client, ann)
            let shown = try await client.get("/v1/series/\(id)", ann)
            #expect(shown.status == .ok)
            #expect(shown.body["weekdays"] as? [String] == ["mon", "wed"] && shown.body["until"] as? String == "2026-12-09")
            #expect((shown.body["template"] as? [String: Any])?["time"] as? String == "15:00")
            #expect((shown.body["rides"] as? [Any])?.count == 4)
            #expect((try await client.get("/v1/series", ann).body["series"] as? [Any])?.count == 1)

            // Bob takes Wednesday Dec 2 at 4 PM; moving all from Dec 1 to 4 PM lists it, and nothing changes.
            var bobs = RideRoutesTests.sclToDavenport
            bobs["pickup_at"] = "2026-12-02T16:00"
            #expect(try await client.book(bob, bobs).status == .created)
            let before = try await Self.snapshot(w)
            let edit: [String: Any?] = ["scope": "from", "date": "2026-12-01", "time": "16:00"]
            let check = try await client.post("/v1/series/\(id)/edits/check", ann, edit)
            #expect(check.status == .ok)
            #expect(check.body["applied"] as? Bool == false && check.body["conflicts"] as? Int == 1)
            let dates = try #require(check.body["dates"] as? [[String: Any]])
            #expect(dates.map { $0["result"] as? String } == ["conflict", "fits", "fits"])
            let suggestion = try #require((dates[0]["suggestions"] as? [[String: Any]])?.first?["choice"] as? String)
            let refused = try await client.post("/v1/series/\(id)/edits", ann, edit)
            #expect(refused.status == .conflict && refused.type == "application/problem+json")
            #expect(refused.body["type"] as? String == "/problems/series-change-conflicts")
            #expect((refused.body["dates"] as? [Any])?.count == 3)
            #expect(try await Self.snapshot(w) == before)

            // With her choice (the suggested time) it is made.
            var chosen = edit
            chosen["choices"] = ["2026-12-02": suggestion]
            let applied = try await client.post("/v1/series/\(id)/edits", ann, chosen)
            #expect(applied.status == .ok && applied.body["applied"] as? Bool == true, "\(applied.body)")
            #expect(((applied.body["series"] as? [String: Any])?["template"] as? [String: Any])?["time"] as? String == "16:00")

            // Held Dec 7 to Dec 9, then resumed: the two dates come back.
            let held = try await client.post("/v1/series/\(id)/holds", ann, ["from": "2026-12-07", "to": "2026-12-09"])
            #expect(held.status == .created, "\(held.body)")
            #expect((held.body["cancelled"] as? [Any])?.count == 2)
            let hold = try #require((held.body["hold"] as? [String: Any])?["id"] as? Int)
            let resumeCheck = try await client.post("/v1/series/\(id)/holds/\(hold)/resume/check", ann, [:])
            #expect(resumeCheck.status == .ok && (resumeCheck.body["dates"] as? [Any])?.count == 2)
            let resumed = try await client.post("/v1/series/\(id)/holds/\(hold)/resume", ann, [:])
            #expect(resumed.status == .ok && resumed.body["applied"] as? Bool == true, "\(resumed.body)")
            let again = try await client.post("/v1/series/\(id)/holds/\(hold)/resume", ann, [:])
            #expect(again.status == .conflict && again.body["type"] as? String == "/problems/hold-not-open")
        }
        await w.f.close()
    }

    @Test func badInputIsAProblemNamingTheFieldAndChangesNothing() async throws {
        let w = try await BookingWorld()
        try await w.f.application().test(.router) { client in
            let ann = try await client.token("ann1", "correct horse battery")
            let bob = try await client.token("bob2", "correct horse battery")
            let id = try await Self.annsSeries(client, ann)
            let before = try await Self.snapshot(w)
            let bad = try await client.post("/v1/series/\(id)/edits", ann, ["scope": "all", "date": "someday", "time": "3pm"])
            #expect(bad.status == .unprocessableContent && bad.type == "application/problem+json")
            let fields = Set((bad.body["fields"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String })
            #expect(fields == ["scope", "date", "time"])
            let unknownPlace = try await client.post("/v1/series/\(id)/edits", ann, ["scope": "one", "date": "2026-12-02", "pickup": "Nowhere"])
            #expect(unknownPlace.status == .unprocessableContent)
            #expect((unknownPlace.body["fields"] as? [[String: Any]])?.first?["field"] as? String == "pickup.place")
            let backwards = try await client.post("/v1/series/\(id)/holds", ann, ["from": "2026-12-09", "to": "2026-12-01"])
            #expect(backwards.status == .unprocessableContent)
            let notJSON = try await client.execute(
                uri: "/v1/series/\(id)/holds", method: .post, headers: Wire.bearer(ann), body: ByteBuffer(string: "{from")
            ) { $0.status }
            #expect(notJSON == .badRequest)
            // Another rider's series, or none: 404, and nothing changes.
            #expect(try await client.get("/v1/series/\(id)", bob).status == .notFound)
            let bobs = try await client.post("/v1/series/\(id)/holds", bob, ["from": "2026-12-01", "to": "2026-12-09"])
            #expect(bobs.status == .notFound && bobs.type == "application/problem+json")
            #expect(
                try await client.post("/v1/series/\(id)/edits/check", bob, ["scope": "one", "date": "2026-12-02", "time": "16:00"]).status
                    == .notFound)
            #expect(try await client.post("/v1/series/\(id)/holds/1/resume", ann, [:]).status == .notFound)
            #expect(try await client.get("/v1/series/not-a-uuid", ann).status == .notFound)
            #expect(try await Self.snapshot(w) == before)
        }
        await w.f.close()
    }
}
