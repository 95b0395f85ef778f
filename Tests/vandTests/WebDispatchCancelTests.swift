import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// Cancelling a ride from the console's ride page: as the rider asked on the phone (her own
/// cancellation, late as hers would be), or by the service with the reason she is told; refusals
/// next to their field, changing nothing.
@Suite("The console cancels a ride for a rider who phones, or for the service")
struct WebDispatchCancelTests {
    func signedIn(_ client: some TestClientProtocol) async throws -> WebJar {
        var jar = WebJar()
        #expect(try await client.webSignIn("dee1", jar: &jar).headers[.location] == "/dispatch")
        return jar
    }

    /// The ride's status, who cancelled it, whether late, and its latest event's kind and actor.
    func stored(_ w: ConsoleWorld, _ ride: Ride) async throws -> (String, String?, Bool?, String, String) {
        try await w.f.database.pool.withConnection { conn in
            let row = try conn.query("SELECT status, cancelled_by, cancelled_late FROM rides WHERE id = \(ride.id)").first!
            let event = try conn.query("SELECT kind, payload->>'actor' FROM ride_events WHERE ride_id = \(ride.id) ORDER BY id DESC LIMIT 1").first!
            return (try row.decode(at: 0), try row.decode(at: 1), try row.decode(at: 2), try event.decode(at: 0), try event.decode(at: 1))
        }
    }

    @Test func theRiderAskedOnThePhoneHerOwnCancellationLateWithinTheHourAndAudited() async throws {
        let w = try await ConsoleWorld()
        let early = try await WebDispatchBoardTests.approved(w, "ann1", w.at(12, 0))
        let soon = try await WebDispatchBoardTests.approved(w, "ann1", w.at(15, 0))
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let page = try await client.web("/dispatch/rides/\(early.ref.rawValue)", jar: &jar)
            #expect(page.body.contains(#"<h2 id="cancel-heading">Cancel the ride</h2>"#))
            #expect(page.body.contains(#"<input id="who" name="who" type="radio" value="rider" checked>"#))
            #expect(page.body.contains("Ann asked: her own cancellation</label>"))
            let done = try await client.web(
                "/dispatch/rides/\(early.ref.rawValue)/cancel", form: [("csrf", page.csrf ?? ""), ("who", "rider"), ("reason", "")], jar: &jar)
            #expect(done.status == .seeOther && done.headers[.location] == "/dispatch/rides/\(early.ref.rawValue)?done=cancelled")
            let after = try await client.web(done.headers[.location]!, jar: &jar)
            #expect(after.body.contains("The ride is cancelled; the rider is told."))
            #expect(!after.body.contains("cancel-heading"))

            // Within the hour before pickup: counted late, as her own would be, and the form says so first.
            w.f.clock.set(w.at(14, 20))
            let close = try await client.web("/dispatch/rides/\(soon.ref.rawValue)", jar: &jar)
            #expect(close.body.contains("Ann asked: her own cancellation, counted late (within the hour before pickup)"))
            #expect(
                try await client.web("/dispatch/rides/\(soon.ref.rawValue)/cancel", form: [("csrf", close.csrf ?? ""), ("who", "rider")], jar: &jar)
                    .status == .seeOther)
        }
        let (status, by, late, kind, actor) = try await stored(w, early)
        #expect(status == "cancelled" && by == "rider" && late == false && kind == "cancelled_by_rider" && actor == ConsoleWorld.dispatcherActor)
        let soonStored = try await stored(w, soon)
        #expect(soonStored.0 == "cancelled" && soonStored.2 == true)
        #expect(try await w.auditActors("ride.cancel_for_rider") == [ConsoleWorld.dispatcherActor, ConsoleWorld.dispatcherActor])
        await w.f.close()
    }

    @Test func theServiceCancelsWithAReasonSheIsToldAndWithoutOneNothingChanges() async throws {
        let w = try await ConsoleWorld()
        let ride = try await WebDispatchBoardTests.approved(w, "ann1", w.at(12, 0))
        let audit = try await w.count("SELECT count(*) FROM audit_log")
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let page = try await client.web("/dispatch/rides/\(ride.ref.rawValue)", jar: &jar)
            let csrf = page.csrf ?? ""
            let noReason = try await client.web(
                "/dispatch/rides/\(ride.ref.rawValue)/cancel", form: [("csrf", csrf), ("who", "service"), ("reason", "  ")], jar: &jar)
            #expect(noReason.status == .unprocessableContent)
            #expect(noReason.body.contains(#"<p class="error" id="reason-error"><span class="vh">Error: </span>Enter the reason the rider is told"#))
            #expect(noReason.body.contains(#"<input id="who-service" name="who" type="radio" value="service" checked>"#))
            #expect(noReason.body.contains(##"<a href="#reason">"##))
            let noChoice = try await client.web(
                "/dispatch/rides/\(ride.ref.rawValue)/cancel", form: [("csrf", csrf), ("reason", "Van 2 <b>broke</b> down")], jar: &jar)
            #expect(noChoice.status == .unprocessableContent && noChoice.body.contains(#"id="who-error""#))
            #expect(noChoice.body.contains("value=\"Van 2 &lt;b&gt;broke&lt;/b&gt; down\""))
            #expect(try await stored(w, ride).0 == "approved")
            #expect(try await w.count("SELECT count(*) FROM audit_log") == audit)

            let done = try await client.web(
                "/dispatch/rides/\(ride.ref.rawValue)/cancel", form: [("csrf", csrf), ("who", "service"), ("reason", "Van 1 broke down")], jar: &jar)
            #expect(done.status == .seeOther)
        }
        let (status, by, _, kind, actor) = try await stored(w, ride)
        #expect(status == "cancelled" && by != "rider" && kind == "cancelled_by_service" && actor == ConsoleWorld.dispatcherActor)
        #expect(try await w.count("SELECT count(*) FROM rides WHERE id = \(ride.id) AND reason = 'Van 1 broke down'") == 1)
        #expect(try await w.auditActors("ride.cancel") == [ConsoleWorld.dispatcherActor])
        await w.f.close()
    }

    /// Her van came early and she is on board before the planned pickup: no cancel form, and a
    /// cancel sent anyway is refused in the dispatcher's words, changing nothing.
    @Test func aRiderOnBoardIsNotCancelledForHer() async throws {
        let w = try await ConsoleWorld()
        let ride = try await WebDispatchBoardTests.approved(w, "ann1", w.at(12, 0))
        let road = Road(pool: w.f.database.pool, clock: w.f.clock, settings: RoadSettings(), timeZone: w.configuration.timeZone)
        w.f.clock.set(w.at(11, 50))
        _ = try await road.shifts.start(driver: try NetID("dana1"), vanID: try #require(ride.vanID))
        w.f.clock.set(w.at(12, 0))
        for action in [TapAction.arrived, .boarded] {
            _ = try await road.taps.tap(driver: try NetID("dana1"), TapRequest(tapKey: UUID(), rideID: ride.id, stop: .pickup, action: action))
        }
        w.f.clock.set(w.at(11, 59))
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let page = try await client.web("/dispatch/rides/\(ride.ref.rawValue)", jar: &jar)
            #expect(!page.body.contains("cancel-heading"))
            let refused = try await client.web(
                "/dispatch/rides/\(ride.ref.rawValue)/cancel", form: [("csrf", page.csrf ?? ""), ("who", "rider")], jar: &jar)
            #expect(refused.status == .conflict && refused.body.contains("This ride cannot be cancelled: the rider is on board"), "\(refused.status)")
        }
        #expect(try await stored(w, ride).0 == "approved")
        await w.f.close()
    }

    @Test func afterPickupTheFormIsGoneAndACancelIsRefusedNextToTheField() async throws {
        let w = try await ConsoleWorld()
        let ride = try await WebDispatchBoardTests.approved(w, "ann1", w.at(9, 0))
        try await w.application().test(.router) { client in
            var jar = try await signedIn(client)
            let csrf = try await client.web("/dispatch/rides/\(ride.ref.rawValue)", jar: &jar).csrf ?? ""
            w.f.clock.set(w.at(9, 30))
            let page = try await client.web("/dispatch/rides/\(ride.ref.rawValue)", jar: &jar)
            #expect(!page.body.contains("cancel-heading"))
            let refused = try await client.web("/dispatch/rides/\(ride.ref.rawValue)/cancel", form: [("csrf", csrf), ("who", "rider")], jar: &jar)
            #expect(refused.status == .conflict)
            #expect(refused.body.contains("This ride cannot be cancelled: the pickup time has passed"))
        }
        #expect(try await stored(w, ride).0 == "approved")
        #expect(try await w.count("SELECT count(*) FROM audit_log WHERE action LIKE 'ride.cancel%'") == 0)
        await w.f.close()
    }
}
