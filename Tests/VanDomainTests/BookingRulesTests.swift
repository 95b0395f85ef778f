import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

@Suite("Booking rules: policy, recurrence, place matching")
struct BookingRulesTests {
    let policy = BookingPolicy(serviceCenter: BookingPolicy.yaleCenter)
    let now = Date(timeIntervalSince1970: 1_795_366_800)  // Sun 2026-11-22 12:00 New York
    let places = [
        Place(id: 1, name: "Sterling Chemistry Lab", aliases: ["SCL"], coordinate: try! Coordinate(latitude: 41.31633, longitude: -72.92241)),
        Place(id: 2, name: "Davenport College", aliases: ["Davenport"], coordinate: try! Coordinate(latitude: 41.30917, longitude: -72.93139)),
    ]

    @Test func pickupTimesMustBeFromNowWithinTheHorizon() throws {
        try policy.checkPickupTime(now.addingTimeInterval(3_600), now: now)
        #expect(throws: ValidationError(field: "pickup_at", reason: "is in the past; choose a time from now on")) {
            try policy.checkPickupTime(now.addingTimeInterval(-3_600), now: now)
        }
        let far = #expect(throws: ValidationError.self) { try policy.checkPickupTime(now.addingTimeInterval(15 * 86_400), now: now) }
        #expect(far?.field == "pickup_at")
        #expect(far?.reason.contains("14 days") == true)
        #expect(throws: ValidationError.self) { try policy.checkDetails(companions: 3, note: nil) }
        #expect(throws: ValidationError.self) { try policy.checkDetails(companions: 0, note: String(repeating: "x", count: 501)) }
    }

    @Test func aGPSPointNearAPlaceIsLabelledWithItAndKeepsItsCoordinates() throws {
        let matcher = PlaceMatcher(places: places, policy: policy)
        let near = try matcher.resolve(.init(lat: 41.31640, lon: -72.92245), field: "pickup")
        #expect(near.placeName == "Sterling Chemistry Lab")
        #expect(near.coordinate?.latitude == 41.31640)
        // 300 m away from every place: just coordinates.
        let open = try matcher.resolve(.init(lat: 41.3130, lon: -72.9180), field: "pickup")
        #expect(open.placeName == nil && open.coordinate != nil)
        let byName = try matcher.resolve(.init(place: "scl"), field: "dropoff")
        #expect(byName.placeID == 1)
        let address = try matcher.resolve(.init(address: "  12 Hillhouse Ave  "), field: "dropoff")
        #expect(address == RideEndpoint(address: "12 Hillhouse Ave"))
    }

    @Test func badEndpointsNameTheirField() {
        let matcher = PlaceMatcher(places: places, policy: policy)
        let unknown = #expect(throws: ValidationError.self) { try matcher.resolve(.init(place: "Davenprt"), field: "dropoff") }
        #expect(unknown?.field == "dropoff.place")
        #expect(unknown?.reason.contains("'Davenport College'") == true)
        let farAway = #expect(throws: ValidationError.self) { try matcher.resolve(.init(lat: 40.7128, lon: -74.0060), field: "pickup") }
        #expect(farAway?.field == "pickup")
        let half = #expect(throws: ValidationError.self) { try matcher.resolve(.init(lat: 41.3), field: "pickup") }
        #expect(half?.field == "pickup.lon")
        let outOfRange = #expect(throws: ValidationError.self) { try matcher.resolve(.init(lat: 91, lon: 0), field: "pickup") }
        #expect(outOfRange?.field == "pickup.lat")
        let nothing = #expect(throws: ValidationError.self) { try matcher.resolve(.init(), field: "pickup") }
        #expect(nothing?.field == "pickup")
    }

    @Test func aSeriesKeepsItsLocalTimeAcrossDaylightSaving() throws {
        let zone = TimeZone(identifier: "America/New_York")!
        // Tuesday 2026-10-27 15:00 EDT = 19:00 UTC; the clocks fall back on Sunday 2026-11-01.
        let first = Date(timeIntervalSince1970: 1_793_127_600)
        let rule = try Recurrence(weekdays: [3, 5], until: LocalDate("2026-11-05"))
        let dates = rule.occurrences(startingAt: first, in: zone)
        #expect(dates.count == 4)  // Tue 27, Thu 29, Tue 3, Thu 5
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        #expect(dates.allSatisfy { calendar.component(.hour, from: $0) == 15 })
        #expect(dates[2].timeIntervalSince(dates[1]) == 5 * 86_400 + 3_600)  // the extra hour of the fall-back night
        #expect(throws: ValidationError.self) { try Recurrence(weekdays: [], until: LocalDate("2026-11-05")) }
        #expect(try Recurrence.weekday(named: "Thursday") == 5)
    }
}
