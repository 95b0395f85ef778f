import Foundation
import Testing
import VanDomain

@Suite("The no-show rule")
struct NoShowRuleTests {
    let start = Date(timeIntervalSince1970: 1_000_000)
    var window: DateInterval { DateInterval(start: start, duration: 900) }
    let rule = NoShowRule(wait: 300)

    @Test func anEarlyArrivalWaitsFromTheWindowsStart() {
        #expect(rule.allowedFrom(arrivedAt: start.addingTimeInterval(-600), window: window) == start.addingTimeInterval(300))
    }

    @Test func aRiderToldALaterTimeIsWaitedForFromThatTime() {
        let arrived = start.addingTimeInterval(60), told = start.addingTimeInterval(1_500)
        #expect(rule.allowedFrom(arrivedAt: arrived, window: window, toldETA: told) == told.addingTimeInterval(300))
        #expect(
            rule.refusal(arrivedAt: arrived, window: window, toldETA: told, now: told.addingTimeInterval(299))
                == .waiting(until: told.addingTimeInterval(300)))
        // A told time before the arrival changes nothing.
        #expect(rule.allowedFrom(arrivedAt: arrived, window: window, toldETA: start.addingTimeInterval(-600)) == arrived.addingTimeInterval(300))
    }

    @Test func anArrivalInsideTheWindowWaitsFromTheArrival() {
        let arrived = start.addingTimeInterval(400)
        #expect(
            rule.refusal(arrivedAt: arrived, window: window, now: arrived.addingTimeInterval(299)) == .waiting(until: arrived.addingTimeInterval(300))
        )
        #expect(rule.refusal(arrivedAt: arrived, window: window, now: arrived.addingTimeInterval(300)) == nil)
    }

    @Test func aLateArrivalNeverAllowsANoShow() {
        let arrived = window.end.addingTimeInterval(1)
        #expect(rule.allowedFrom(arrivedAt: arrived, window: window) == nil)
        #expect(
            rule.refusal(arrivedAt: arrived, window: window, now: arrived.addingTimeInterval(3_600)) == .arrivedAfterWindow(windowEnd: window.end))
        #expect(rule.refusal(arrivedAt: nil, window: window, now: start) == .notArrived)
    }

    @Test func anArriveByRidesPickupWindowStartsAtThePlannedPickup() {
        let promise = RidePromise(kind: .arriveBy, window: DateInterval(start: start, duration: 900))
        let planned = start.addingTimeInterval(-1_200)
        #expect(NoShowRule.pickupWindow(promise: promise, plannedPickup: planned) == DateInterval(start: planned, duration: 900))
    }

    @Test func tapsFitTheirStops() {
        #expect(TapAction.boarded.fits(.pickup) && !TapAction.boarded.fits(.dropoff))
        #expect(TapAction.droppedOff.fits(.dropoff) && !TapAction.droppedOff.fits(.pickup))
        #expect(TapAction.arrived.fits(.pickup) && TapAction.arrived.fits(.dropoff))
    }

    @Test func badFixesAreRefusedByField() {
        #expect(throws: ValidationError.self) { try PositionFix(lat: 91, lon: 0) }
        #expect(throws: ValidationError.self) { try PositionFix(lat: 0, lon: -180.5) }
        #expect(throws: ValidationError.self) { try PositionFix(lat: .nan, lon: 0) }
        #expect(throws: ValidationError.self) { try PositionFix(lat: 0, lon: 0, accuracyMeters: -1) }
        #expect(throws: ValidationError.self) { try PositionFix(lat: 0, lon: 0, accuracyMeters: .infinity) }
        #expect(throws: Never.self) { try PositionFix(lat: 41.3, lon: -72.9, accuracyMeters: 12) }
    }
}
