import Foundation
import Testing
import VanDomain
import VanScheduler
@testable import VanServices

/// What riders, alerts and reminders read from one van's estimates, for an arrive-by ride (its
/// promise on the drop-off, her wait from the planned pickup). Figures from the travel model:
/// 1 km drives in 234 s, boarding 120 s.
@Suite struct VanETAsTests {
    let t0 = Date(timeIntervalSince1970: 1_795_953_600)
    let scl = try! Coordinate(latitude: 41.31633, longitude: -72.92241)
    var north: Coordinate { try! Coordinate(latitude: scl.latitude + 1_000 / Coordinate.earthRadius * 180 / .pi, longitude: scl.longitude) }

    /// Arrive by t0 + 25 min (window from t0 + 10 min), planned pickup t0 + 20 min at SCL, drop-off 1 km north.
    func etas(now: TimeInterval) -> (VanETAs, UUID) {
        let id = UUID()
        let promise = RidePromise(kind: .arriveBy, window: DateInterval(start: t0.addingTimeInterval(600), end: t0.addingTimeInterval(1_500)))
        let pickupAt = t0.addingTimeInterval(1_200)
        let stops = [
            RoadETA.Stop(rideID: id, kind: .pickup, location: scl, plannedAt: pickupAt, opensAt: pickupAt),
            RoadETA.Stop(
                rideID: id, kind: .dropoff, location: north, plannedAt: t0.addingTimeInterval(1_500),
                opensAt: promise.window.start, windowEnd: promise.window.end),
        ]
        let at = t0.addingTimeInterval(now)
        let estimates = RoadETA().estimates(from: .init(location: scl, at: at), through: stops, now: at)
        let ride = VanETAs.RoadRide(id: id, netID: "ann1", status: .approved, promise: promise, pickupAt: pickupAt)
        return (VanETAs(vanID: 1, fix: .init(location: scl, at: at), source: .position, estimates: estimates, rides: [id: ride], now: at), id)
    }

    @Test func anArriveByRideIsJudgedAtItsDropOff() {
        // The van waits at SCL for the planned pickup (1200), boards to 1320, reaches the drop-off at
        // 1554: 54 s after the window's end (1500), under a whole minute, so on time by the one rule.
        let (etas, id) = etas(now: 0)
        #expect(etas.estimates.last?.lateness?.seconds == 54)
        #expect(etas.late.isEmpty)
        let shown = try! #require(etas.rider(id, lead: 30 * 60))
        // The van is at her pickup place before her time: it is ready for her at her planned pickup.
        #expect(shown.at == t0.addingTimeInterval(1_200))
        #expect(shown.atWindowStart && shown.minutes == 20)
        #expect(shown.sentence == "The van will be at your stop when your window opens, in about 20 minutes, your stop is next.")
        #expect(shown.lateMinutes == 0)
        // Still at SCL at 1266 (66 s past the planned pickup), it boards to 1386 and reaches the
        // drop-off at 1620, 120 s after the window: 2 whole minutes late.
        let (later, laterID) = self.etas(now: 1_266)
        #expect(later.late.map(\.rideID) == [laterID] && later.late.first?.stop == .dropoff)
        #expect(later.rider(laterID, lead: 30 * 60)?.lateMinutes == 2)
    }

    @Test func herWaitBeginsAtThePlannedPickup() {
        // 20 minutes before the planned pickup: outside a 15-minute lead, inside a 30-minute one.
        let (etas, id) = etas(now: 0)
        #expect(etas.rider(id, lead: 15 * 60) == nil)
        #expect(etas.rider(id, lead: 30 * 60) != nil)
    }

    @Test func aReminderIsDueOnlyWithinTheLeadAndOnce() {
        // The van is at her pickup place already, ready for her at her planned pickup, 20 minutes
        // from now: the reminder comes 15 minutes before that, not now.
        let (etas, id) = etas(now: 0)
        #expect(etas.dueReminders(lead: 15 * 60).isEmpty)
        #expect(etas.dueReminders(lead: 20 * 60).map(\.rideID) == [id])
        #expect(etas.dueReminders(lead: 20 * 60).map(\.eta) == [t0.addingTimeInterval(1_200)])
        let (later, laterID) = self.etas(now: 300)
        #expect(later.dueReminders(lead: 15 * 60).map(\.rideID) == [laterID])
        var reminded = etas
        reminded = VanETAs(
            vanID: 1, fix: etas.fix, source: .position, estimates: etas.estimates,
            rides: etas.rides.mapValues {
                var ride = $0; ride.reminded = true; return ride
            }, now: etas.now)
        #expect(reminded.dueReminders(lead: 20 * 60).isEmpty)
    }

    @Test func theSentences() {
        func eta(_ minutes: TimeInterval, stops: Int, here: Bool = false) -> String {
            RiderETA(rideID: UUID(), vanID: 1, at: t0.addingTimeInterval(minutes * 60), now: t0, stopsBefore: stops, vanHere: here, lateness: .onTime)
                .sentence
        }
        #expect(eta(6, stops: 2) == "The van is about 6 minutes away, 2 stops before yours.")
        #expect(eta(1, stops: 1) == "The van is about 1 minute away, 1 stop before yours.")
        #expect(eta(0.2, stops: 0) == "The van is less than a minute away, your stop is next.")
        #expect(eta(0, stops: 0, here: true) == "The van is here.")
        func early(_ minutes: TimeInterval, stops: Int) -> String {
            RiderETA(
                rideID: UUID(), vanID: 1, at: t0.addingTimeInterval(minutes * 60), now: t0, stopsBefore: stops, vanHere: false, lateness: .onTime,
                atWindowStart: true
            ).sentence
        }
        #expect(early(20, stops: 2) == "The van will be at your stop when your window opens, in about 20 minutes, 2 stops before yours.")
        #expect(early(1, stops: 0) == "The van will be at your stop when your window opens, in about 1 minute, your stop is next.")
        #expect(early(0.2, stops: 0) == "The van will be at your stop when your window opens, in less than a minute, your stop is next.")
    }
}
