import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// `POST /v1/vans/{id}/positions` at its edges: a fix's time must lie in
/// [now − VAND_POSITION_STALE, now + 60 s] (else a 422 naming `at`, nothing stored), and one
/// fix per van per second is kept (the rest answered 202, neither stored nor sent to consoles).
@Suite("Positions: the accepted window and one a second")
struct PositionLimitsTests {
    static func trail(_ f: RouterFixture) async throws -> Int {
        try await f.database.pool.withConnection { try $0.query("SELECT count(*) FROM van_trail").first!.decode(Int.self, at: 0) }
    }

    static func post(_ client: some TestClientProtocol, van: Int64, token: String, _ body: [String: Any?]) async throws -> (
        HTTPResponse.Status, [String: Any]
    ) {
        try await client.execute(uri: "/v1/vans/\(van)/positions", method: .post, headers: Wire.bearer(token), body: Wire.body(body)) {
            ($0.status, Wire.object($0.body))
        }
    }

    @Test func aTimeOutsideTheWindowIsA422NamingAtAndStoresNothing() async throws {
        let f = try await RouterFixture()
        _ = try await DemoData.load(into: f.database.pool, actor: "test")
        let van = try await f.vanID("Van 2")
        let (_, tracker) = try await TrackerTokens(pool: f.database.pool, clock: f.clock).issue(vanNamed: "Van 2", actor: "test")
        let stale = f.configuration.road.positionStale
        try await f.application().test(.router) { client in
            let now = f.clock.now
            for at in [
                "0001-01-01T00:00:00Z", now.addingTimeInterval(-stale - 1).formatted(.iso8601), now.addingTimeInterval(61).formatted(.iso8601),
            ] {
                let (status, body) = try await Self.post(client, van: van, token: tracker.rawValue, ["lat": 41.3163, "lon": -72.9224, "at": at])
                #expect(status == .unprocessableContent, "at \(at)")
                #expect(body["type"] as? String == "/problems/invalid-fields")
                #expect((body["fields"] as? [[String: Any]])?.map { $0["field"] as? String } == ["at"], "\(body)")
            }
            #expect(try await Self.trail(f) == 0)
            // The window's edges are inside it.
            for at in [now.addingTimeInterval(-stale), now.addingTimeInterval(60)] {
                let (status, _) = try await Self.post(
                    client, van: van, token: tracker.rawValue, ["lat": 41.3163, "lon": -72.9224, "at": at.formatted(.iso8601)])
                #expect(status == .noContent, "at \(at)")
            }
            #expect(try await Self.trail(f) == 2)
        }
        await f.close()
    }

    @Test func oneFixPerVanPerSecondIsStoredAndSentTheRestAreAnswered202() async throws {
        let f = try await RouterFixture()
        _ = try await DemoData.load(into: f.database.pool, actor: "test")
        let van = try await f.vanID("Van 2"), other = try await f.vanID("Van 1")
        let trackers = TrackerTokens(pool: f.database.pool, clock: f.clock)
        let (_, tracker) = try await trackers.issue(vanNamed: "Van 2", actor: "test")
        let (_, otherTracker) = try await trackers.issue(vanNamed: "Van 1", actor: "test")
        let events = PGListener.events(configuration: f.database.pool.configuration, channels: ["vand_van_positions"])
        // Consoles hear of a van's fix through NOTIFY vand_van_positions; notifications arrive in
        // commit order, so once the last kept fix is heard, any of a dropped one would have been.
        // The guard covers the server's start and seven requests, not one wait: on a 2-core machine
        // with a cold build beside the tests, it once took over a minute. It is there for a hang.
        let heard = try await withTimeout(seconds: 300) {
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next() == .listening)
            try await f.application().test(.router) { client in
                f.clock.advance(by: 0.2)
                var answers: [HTTPResponse.Status] = []
                for step in 0..<5 {
                    answers.append(
                        try await Self.post(client, van: van, token: tracker.rawValue, ["lat": 41.30 + Double(step) / 1000, "lon": -72.92]).0)
                    f.clock.advance(by: 0.1)
                }
                #expect(answers == [.noContent, .accepted, .accepted, .accepted, .accepted])
                // Another van has its own second.
                #expect(try await Self.post(client, van: other, token: otherTracker.rawValue, ["lat": 41.31, "lon": -72.93]).0 == .noContent)
                // The next second is the van's again.
                f.clock.advance(by: 1)
                #expect(try await Self.post(client, van: van, token: tracker.rawValue, ["lat": 41.32, "lon": -72.92]).0 == .noContent)
            }
            var payloads: [String] = []
            while payloads.count < 3, let event = await iterator.next() {
                if case .notification(let note) = event { payloads.append(note.payload) }
            }
            return payloads
        }
        #expect(heard == [String(van), String(other), String(van)])
        #expect(try await Self.trail(f) == 3)
        let latest = try await f.database.pool.withConnection {
            try $0.query("SELECT lat FROM van_positions WHERE van_id = \(van)").first!.decode(Double.self, at: 0)
        }
        #expect(latest == 41.32)
        await f.close()
    }

    /// A tap's own position keeps the same window: out of it, the fix is dropped and the tap stands
    /// (it was stored at its year-1 time before, past any check).
    @Test func aTapsPositionOutsideTheWindowIsDroppedAndTheTapStands() async throws {
        let f = try await RouterFixture()
        let (van, ride) = try await f.driversDay()
        try await f.application().test(.router) { client in
            let token = try await client.driverOnShift(van: van)
            let before = try await Self.trail(f)
            let tap = Wire.body([
                "tap_key": UUID().uuidString, "ride_id": ride.uuidString, "stop": "pickup", "action": "arrived",
                "position": ["lat": 41.3163, "lon": -72.9224, "at": "0001-01-01T00:00:00Z"],
            ])
            try await client.execute(uri: "/v1/driver/taps", method: .post, headers: Wire.bearer(token), body: tap) { #expect($0.status == .created) }
            #expect(try await Self.trail(f) == before)
            // In the window, it is kept.
            let next = Wire.body([
                "tap_key": UUID().uuidString, "ride_id": ride.uuidString, "stop": "pickup", "action": "boarded",
                "position": ["lat": 41.3163, "lon": -72.9224, "at": f.clock.now.formatted(.iso8601)],
            ])
            try await client.execute(uri: "/v1/driver/taps", method: .post, headers: Wire.bearer(token), body: next) {
                #expect($0.status == .created)
            }
            #expect(try await Self.trail(f) == before + 1)
        }
        await f.close()
    }
}
