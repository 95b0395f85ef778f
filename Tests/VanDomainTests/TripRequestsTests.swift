import Foundation
import Testing
import VanDomain

/// Requests, negotiation and denials as 49 CFR 37.131(b) counts them, on hand-worked cases.
@Suite("Trip requests and denials")
struct TripRequestsTests {
    let zone = TimeZone(identifier: "America/New_York")!
    /// Monday 2026-11-23 00:00 New York.
    let midnight = Date(timeIntervalSince1970: 1_795_410_000)
    let day = try! LocalDate("2026-11-23")
    let trip = TripKey(from: RideEndpoint(placeID: 3), to: RideEndpoint(address: "  180  York St "))

    func at(_ hour: Int, _ minute: Int = 0) -> Date { midnight.addingTimeInterval(Double(hour * 3600 + minute * 60)) }

    func refusal(_ id: Int64, asked: Date, refusedAt: Date, reason: String = "occupied", rider: String = "ann", standing: Bool = false)
        -> TripRequests.Refusal
    {
        TripRequests.Refusal(
            id: id, netID: rider, trip: trip, day: day, asked: asked, refusedAt: refusedAt, reason: reason, standing: standing)
    }

    @Test func aTripIsItsPlacesItsPointsOrItsAddressFolded() {
        #expect(trip.rawValue == "place:3>addr:180 york st")
        let point = try! Coordinate(latitude: 41.316331, longitude: -72.922409)
        #expect(
            TripKey(from: RideEndpoint(coordinate: point, placeName: "SCL"), to: RideEndpoint(placeID: 9)).rawValue == "at:41.3163,-72.9224>place:9")
        #expect(
            TripKey(from: RideEndpoint(address: "180 YORK ST"), to: RideEndpoint(placeID: 3))
                != TripKey(from: RideEndpoint(placeID: 3), to: RideEndpoint(address: "180 york st")))
    }

    @Test func aBookingAnswersTheRefusalsChainedWithinTenMinutesBeforeIt() {
        let refusals = [
            refusal(1, asked: at(16, 30), refusedAt: at(9, 0)),  // 16 minutes before the next: a request of its own
            refusal(2, asked: at(16, 30), refusedAt: at(9, 16)),
            refusal(3, asked: at(16, 45), refusedAt: at(9, 25)),
            refusal(4, asked: at(17, 0), refusedAt: at(9, 40)),  // after the booking
        ]
        #expect(TripRequests.answered(by: at(9, 34), among: refusals).map(\.id) == [2, 3])
        #expect(TripRequests.answered(by: at(9, 36), among: refusals).map(\.id) == [])  // 11 minutes after the last
        #expect(TripRequests.answered(by: at(9, 25), among: refusals).map(\.id) == [2, 3])  // at the same instant
    }

    @Test func refusalsAskedAgainAreOneDenialOnceTenMinutesPassWithNoRide() {
        let refusals = [
            refusal(1, asked: at(16, 30), refusedAt: at(9, 0)),
            refusal(2, asked: at(16, 45), refusedAt: at(9, 4)),
            refusal(3, asked: at(17, 0), refusedAt: at(9, 12)),
        ]
        #expect(TripRequests.denials(refusals, now: at(9, 21)).isEmpty)  // she may still book
        let denied = TripRequests.denials(refusals, now: at(9, 22))
        #expect(denied.count == 1)
        #expect(denied.first?.attempts == 3)
        #expect(denied.first?.firstAsked == at(16, 30))
        #expect(denied.first?.lastRefusedAt == at(9, 12))
    }

    @Test func aGapOverTenMinutesStartsAnotherRequestAndOtherRidersAndTripsAreTheirOwn() {
        let other = TripKey(from: RideEndpoint(placeID: 4), to: RideEndpoint(placeID: 3))
        var bob = refusal(3, asked: at(16, 30), refusedAt: at(9, 1), rider: "bob")
        bob.standing = true
        var elsewhere = refusal(4, asked: at(16, 30), refusedAt: at(9, 2))
        elsewhere.trip = other
        let refusals = [refusal(1, asked: at(16, 30), refusedAt: at(9, 0)), refusal(2, asked: at(16, 30), refusedAt: at(9, 11)), bob, elsewhere]
        let denied = TripRequests.denials(refusals, now: at(12))
        #expect(denied.count == 4)
        #expect(denied.filter { $0.netID == "ann" }.count == 3)
        #expect(denied.first { $0.netID == "bob" }?.standing == true)
    }

    @Test func refusalsOutsideTheServiceOrForHerOwnReasonsAreNotDenials() {
        let refusals = [
            refusal(1, asked: at(23, 30), refusedAt: at(9, 0), reason: "outside_service_hours"),
            refusal(2, asked: at(16, 30), refusedAt: at(9, 0), reason: "closed", rider: "bob"),
            refusal(3, asked: at(16, 30), refusedAt: at(9, 0), reason: "no_wheelchair_van", rider: "cy"),
        ]
        #expect(TripRequests.denials(refusals, now: at(12)).map(\.netID) == ["cy"])
    }

    @Test func theTallyCountsByDayAndHourAndFlagsStandingRidesOverHalfAnHourWithOthersDenied() {
        let hours = [
            DenialTally.HourCounts(day: day, hour: 8, requests: 4, negotiated: 2, movedTotal: 100, movedMax: 75, rides: 4, standingRides: 3),
            DenialTally.HourCounts(day: day, hour: 9, requests: 2, rides: 1, standingRides: 1),
        ]
        let moved = DenialTally.DeniedRide(
            ref: "AAA-111", netID: "dee", trip: "SCL → SML", firstAsked: at(8, 10), negotiatedMinutes: 75, rejected: false, standing: false)
        let fine = DenialTally.DeniedRide(
            ref: "AAA-112", netID: "eve", trip: "SCL → SML", firstAsked: at(8, 20), negotiatedMinutes: 25, rejected: false, standing: false)
        let rejected = DenialTally.DeniedRide(
            ref: "AAA-113", netID: "fay", trip: "SCL → SML", firstAsked: at(9, 5), negotiatedMinutes: nil, rejected: true, standing: true)
        let denied = TripRequests.denials([refusal(1, asked: at(8, 40), refusedAt: at(7, 0))], now: at(12))
        let tally = DenialTally(
            hours: hours, deniedRides: [moved, fine, rejected], denied: denied, tripWords: [trip: "Library → 180 York St"], from: day,
            timeZone: zone)
        #expect(tally.total.requests == 7)  // six rides and one request with none
        #expect(tally.total.denials == 3)
        #expect(tally.total.negotiated == 2 && tally.total.negotiatedMinutesMean == 50 && tally.total.negotiatedMinutesMax == 75)
        #expect(tally.days.count == 1 && tally.days[0].requests == 7)
        #expect(tally.hours.map(\.hour) == [8, 9])
        #expect(tally.hours[0].requests == 5 && tally.hours[0].denials == 2)
        // 3 of 4 rides at 8:00 are standing, and two others were denied then; at 9:00 only the
        // standing rider herself was denied.
        #expect(tally.standingWarnings.map(\.hour) == [8])
        #expect(tally.denials.map(\.reason) == ["moved_over_an_hour", "occupied", "rejected_by_dispatcher"])
        #expect(tally.denials[1].trip == "Library → 180 York St")
        #expect(abs(tally.total.denialShare - 3.0 / 7.0) < 1e-9)
    }
}
