import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

@Suite struct VanTests {
    @Test func wheelchairCapabilityFollowsPositions() throws {
        #expect(try Van(id: 1, name: "Van 1", seats: 6, wheelchairPositions: 1).canCarryWheelchair)
        #expect(try !Van(id: 2, name: "Van 2", seats: 6, wheelchairPositions: 0).canCarryWheelchair)
    }

    @Test func defaultsToActive() throws {
        #expect(try Van(id: 1, name: "Van 1", seats: 1, wheelchairPositions: 0).active)
    }

    @Test func refusesNoSeats() {
        #expect(throws: ValidationError(field: "seats", reason: "must be at least 1, got 0")) {
            try Van(id: 1, name: "Van 1", seats: 0, wheelchairPositions: 0)
        }
    }

    @Test func refusesNegativeWheelchairPositions() {
        do {
            _ = try Van(id: 1, name: "Van 1", seats: 4, wheelchairPositions: -1)
            Issue.record("expected an error")
        } catch {
            #expect(error.field == "wheelchair_positions")
        }
    }

    @Test func decodingValidates() throws {
        let van = try Van(id: 3, name: "Bus", seats: 12, wheelchairPositions: 2, active: false)
        #expect(try JSONDecoder().decode(Van.self, from: JSONEncoder().encode(van)) == van)
        let bad = #"{"id":3,"name":"Bus","seats":0,"wheelchairPositions":0,"active":true}"#
        #expect(throws: ValidationError.self) { try decode(Van.self, bad) }
    }
}
