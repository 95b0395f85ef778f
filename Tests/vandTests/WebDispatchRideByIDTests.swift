import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand

/// The console names a ride by its reference, and by its id as `vanadmin` does: an alert's link
/// for a ride without a reference, a log line or `vanadmin --json` all carry the id.
@Suite("A console ride page asked for by the ride's id")
struct WebDispatchRideByIDTests {
    @Test func theRidesPageAnswersItsIdAsItsReference() async throws {
        let w = try await ConsoleWorld()
        let ride = try await WebDispatchBoardTests.approved(w, "ann1", w.at(9, 0))
        try await w.application().test(.router) { client in
            var jar = WebJar()
            #expect(try await client.webSignIn("dee1", jar: &jar).headers[.location] == "/dispatch")
            for id in [ride.id.uuidString.lowercased(), ride.id.uuidString.uppercased()] {
                let page = try await client.web("/dispatch/rides/\(id)", jar: &jar)
                #expect(page.status == .ok, "\(id)")
                #expect(page.body.contains("<bdi>Ann Rivera</bdi> (ann1)") && page.body.contains(ride.ref.rawValue))
                // Its forms post to the reference's address, as from the reference's page.
                #expect(page.body.contains(#"action="/dispatch/rides/\#(ride.ref.rawValue)/move""#))
            }
            // A move posted to the id's address is the same move.
            let page = try await client.web("/dispatch/rides/\(ride.id.uuidString.lowercased())", jar: &jar)
            let moved = try await client.web(
                "/dispatch/rides/\(ride.id.uuidString.lowercased())/move",
                form: [("csrf", page.csrf ?? ""), ("at", "1:30 PM"), ("van", "")], jar: &jar)
            #expect(moved.status == .seeOther && moved.headers[.location] == "/dispatch/rides/\(ride.ref.rawValue)?done=moved")
            // The find field takes the id too.
            let found = try await client.web("/dispatch/find?ref=\(ride.id.uuidString.lowercased())", jar: &jar)
            #expect(found.status == .seeOther && found.headers[.location] == "/dispatch/rides/\(ride.ref.rawValue)")
            // An id no ride has is the console's 404, saying so; so is text that is neither.
            let unknown = UUID()
            let missing = try await client.web("/dispatch/rides/\(unknown.uuidString.lowercased())", jar: &jar)
            #expect(missing.status == .notFound && missing.body.contains("No ride has the id \(unknown.uuidString.lowercased())."))
            #expect(try await client.web("/dispatch/rides/not-a-ride", jar: &jar).status == .notFound)
            // In the find field, an unknown id is "no such ride" (404), not "not a reference" (422).
            let notFound = try await client.web("/dispatch/find?ref=\(unknown.uuidString.lowercased())", jar: &jar)
            #expect(
                notFound.status == .notFound && notFound.body.contains("No ride has the id \(unknown.uuidString.lowercased())"), "\(notFound.body)")
        }
        await w.f.close()
    }
}
