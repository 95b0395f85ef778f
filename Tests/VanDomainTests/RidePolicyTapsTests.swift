import Foundation
import Testing
import VanDomain

/// The driver's taps and their undo in the one ride policy, on cases written from the office's
/// rules: the order of the steps, the no-show's wait and window, an ended stop, the undo window
/// (the driver's) and the correction (the dispatcher's).
@Suite("RidePolicy: the driver's taps and their undo")
struct RidePolicyTapsTests {
    static let start = Date(timeIntervalSince1970: 1_795_953_600)
    static let window = DateInterval(start: start, duration: 600)
    static let rule = NoShowRule(wait: 300)

    static func state(_ taps: [(StopKind, TapAction, TimeInterval)], status: RideStatus = .approved) -> RidePolicy.RoadState {
        RidePolicy.RoadState(
            status: status, standing: taps.map { RidePolicy.Tap(stop: $0.0, action: $0.1, at: start.addingTimeInterval($0.2)) },
            pickupWindow: window)
    }

    @Test func theStepsComeInOrder() {
        let none = Self.state([])
        #expect(RidePolicy.tapRefusal(.arrived, at: .pickup, none, rule: Self.rule, now: Self.start) == nil)
        #expect(
            RidePolicy.tapRefusal(.boarded, at: .pickup, none, rule: Self.rule, now: Self.start)
                == .needsEarlier(.boarded, before: .arrived, at: .pickup))
        #expect(
            RidePolicy.tapRefusal(.arrived, at: .dropoff, none, rule: Self.rule, now: Self.start)
                == .needsEarlier(.arrived, before: .boarded, at: .pickup))
        #expect(RidePolicy.tapRefusal(.boarded, at: .dropoff, none, rule: Self.rule, now: Self.start) == .doesNotFit(.boarded, .dropoff))
        let aboard = Self.state([(.pickup, .arrived, 0), (.pickup, .boarded, 60)])
        #expect(RidePolicy.tapRefusal(.noShow, at: .pickup, aboard, rule: Self.rule, now: Self.start) == .stopHasOutcome(.boarded))
        #expect(RidePolicy.tapRefusal(.arrived, at: .dropoff, aboard, rule: Self.rule, now: Self.start) == nil)
        #expect(
            RidePolicy.tapRefusal(.droppedOff, at: .dropoff, aboard, rule: Self.rule, now: Self.start)
                == .needsEarlier(.droppedOff, before: .arrived, at: .dropoff))
        #expect(
            RidePolicy.tapRefusal(.arrived, at: .pickup, Self.state([], status: .cancelled), rule: Self.rule, now: Self.start)
                == .rideNotActive(.cancelled))
    }

    @Test func aNoShowWaitsInsideTheWindowAndNeverAfterIt() {
        let early = Self.state([(.pickup, .arrived, -120)])
        #expect(
            RidePolicy.tapRefusal(.noShow, at: .pickup, early, rule: Self.rule, now: Self.start.addingTimeInterval(299))
                == .noShowTooEarly(allowedFrom: Self.start.addingTimeInterval(300)))
        #expect(RidePolicy.tapRefusal(.noShow, at: .pickup, early, rule: Self.rule, now: Self.start.addingTimeInterval(300)) == nil)
        let late = Self.state([(.pickup, .arrived, 601)])
        #expect(
            RidePolicy.tapRefusal(.noShow, at: .pickup, late, rule: Self.rule, now: Self.start.addingTimeInterval(3_600))
                == .arrivedAfterWindow(windowEnd: Self.window.end))
    }

    @Test func theOfferIsWhatThePolicyAllowsAndAWaitingNoShow() {
        let arrived = Self.state([(.pickup, .arrived, 0)])
        let offer = RidePolicy.offeredTaps(at: .pickup, arrived, rule: Self.rule, now: Self.start.addingTimeInterval(60))
        #expect(offer.map(\.action) == [.boarded, .noShow])
        #expect(offer.map(\.refusal) == [nil, .noShowTooEarly(allowedFrom: Self.start.addingTimeInterval(300))])
        // Late arrival: no no-show at all; an ended stop: nothing.
        #expect(
            RidePolicy.offeredTaps(at: .pickup, Self.state([(.pickup, .arrived, 700)]), rule: Self.rule, now: Self.start.addingTimeInterval(900))
                .map(\.action) == [.boarded])
        #expect(
            RidePolicy.offeredTaps(at: .pickup, Self.state([(.pickup, .arrived, 0), (.pickup, .boarded, 30)]), rule: Self.rule, now: Self.start)
                .isEmpty)
        #expect(RidePolicy.offeredTaps(at: .dropoff, Self.state([(.pickup, .arrived, 0)]), rule: Self.rule, now: Self.start).isEmpty)
    }

    @Test func theDriverUndoesInHerWindowAndTheOfficeCorrectsAfter() {
        let arrived = RidePolicy.Tap(stop: .pickup, action: .arrived, at: Self.start)
        let boarded = RidePolicy.Tap(stop: .pickup, action: .boarded, at: Self.start.addingTimeInterval(30))
        let until = Self.start.addingTimeInterval(150)
        #expect(RidePolicy.undoRefusal(of: boarded, by: .driver, undoUntil: until, standing: [arrived, boarded], now: until) == nil)
        #expect(
            RidePolicy.undoRefusal(of: boarded, by: .driver, undoUntil: until, standing: [arrived, boarded], now: until.addingTimeInterval(1))
                == .windowPassed(closedAt: until))
        #expect(
            RidePolicy.undoRefusal(
                of: boarded, by: .dispatcher, undoUntil: until, standing: [arrived, boarded], now: until.addingTimeInterval(3_600)) == nil)
        #expect(
            RidePolicy.undoRefusal(of: arrived, by: .dispatcher, undoUntil: until, standing: [arrived, boarded], now: until)
                == .laterFirst(.boarded, at: .pickup))
        let atDropoff = RidePolicy.Tap(stop: .dropoff, action: .arrived, at: Self.start.addingTimeInterval(900))
        #expect(
            RidePolicy.undoRefusal(of: boarded, by: .driver, undoUntil: until, standing: [arrived, boarded, atDropoff], now: until)
                == .laterFirst(.arrived, at: .dropoff))
        #expect(RidePolicy.undoRefusal(of: boarded, by: .rider, undoUntil: until, standing: [arrived, boarded], now: Self.start) == .notForRiders)
    }

    @Test func aDriverEndsARideByHerTapsNotByTheOfficesActions() {
        for action in [RidePolicy.Action.cancel, .noShow, .complete] {
            #expect(RidePolicy.refusal(action, by: .driver, status: .approved, pickupAt: Self.start, progress: .arrived, now: Self.start) == .byTaps)
        }
    }
}
