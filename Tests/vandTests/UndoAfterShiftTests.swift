import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// An undo is a tap too: once the shift it was made on has ended, it is refused with a sentence,
/// as a tap after the shift is, and the tap stands for the dispatcher to correct.
@Suite("An undo after the shift ended is refused")
struct UndoAfterShiftTests {
    /// How the shift ends between the tap and its undo.
    enum Ending: CaseIterable, Sendable { case byTheDriver, byTheDispatcher }

    @Test(arguments: Ending.allCases)
    func anUndoAfterTheShiftEndedIsRefusedAndTheTapStands(_ ending: Ending) async throws {
        let f = try await RouterFixture()
        let (van, ride) = try await f.driversDay()
        try await f.application().test(.router) { client in
            let token = try await client.driverOnShift(van: van)
            let key = UUID().uuidString
            let tap = Wire.body(["tap_key": key, "ride_id": ride.uuidString, "stop": "pickup", "action": "arrived"])
            try await client.execute(uri: "/v1/driver/taps", method: .post, headers: Wire.bearer(token), body: tap) { #expect($0.status == .created) }
            f.clock.advance(by: 30)
            switch ending {
            case .byTheDriver:
                try await client.execute(uri: "/v1/driver/shift", method: .delete, headers: Wire.bearer(token)) { #expect($0.status == .ok) }
            case .byTheDispatcher:
                // What `vanadmin shifts end "Van 1"` calls.
                _ = try await ShiftService(pool: f.database.pool, clock: f.clock).end(vanNamed: "Van 1", actor: "dana")
            }
            f.clock.advance(by: 30)
            // Still inside the two minutes, but the shift is over.
            try await client.execute(uri: "/v1/driver/taps/\(key)/undo", method: .post, headers: Wire.bearer(token)) { response in
                #expect(DriverRoutesTests.problem(response) == (.conflict, "/problems/shift-ended"))
                #expect(response.headers[.contentType] == "application/problem+json")
                let detail = Wire.object(response.body)["detail"] as? String
                #expect(detail == "The shift this tap was made on has ended, so it can no longer be undone; tell the dispatcher.")
            }
            // A tap after the shift is refused as before.
            let late = Wire.body(["tap_key": UUID().uuidString, "ride_id": ride.uuidString, "stop": "pickup", "action": "boarded"])
            try await client.execute(uri: "/v1/driver/taps", method: .post, headers: Wire.bearer(token), body: late) { response in
                #expect(DriverRoutesTests.problem(response) == (.conflict, "/problems/no-open-shift"))
            }
            // A new shift on the same van does not reopen the old shift's taps.
            try await client.execute(uri: "/v1/driver/shift", method: .post, headers: Wire.bearer(token), body: Wire.body(["van": van])) {
                #expect($0.status == .created)
            }
            try await client.execute(uri: "/v1/driver/taps/\(key)/undo", method: .post, headers: Wire.bearer(token)) { response in
                #expect(DriverRoutesTests.problem(response) == (.conflict, "/problems/shift-ended"))
            }
        }
        let standing = try await f.database.pool.withConnection {
            try $0.query("SELECT count(*) FROM stop_taps WHERE undone_at IS NULL").first!.decode(Int.self, at: 0)
        }
        #expect(standing == 1)
        await f.close()
    }
}
