import Foundation
import Testing
import VanDomain

/// The one rule for who may cancel, mark a no-show or complete a ride, on a table of cases
/// written from the office's rules, not from the code.
@Suite("RidePolicy: who may do what, by status, progress and time")
struct RidePolicyTests {
    static let pickup = Date(timeIntervalSince1970: 1_795_953_600)
    static let before = pickup.addingTimeInterval(-60), after = pickup.addingTimeInterval(60)

    typealias Case = (
        action: RidePolicy.Action, actor: RidePolicy.Actor, status: RideStatus, progress: RidePolicy.Progress, now: Date,
        expected: RidePolicy.Refusal?
    )

    static let cases: [Case] = [
        // The rider cancels before her pickup time, unless the van has her aboard.
        (.cancel, .rider, .approved, .notReached, before, nil),
        (.cancel, .rider, .pending, .notReached, before, nil),
        (.cancel, .rider, .approved, .arrived, before, nil),
        (.cancel, .rider, .approved, .boarded, before, .onBoard),
        (.cancel, .rider, .approved, .notReached, after, .afterPickup),
        (.cancel, .rider, .approved, .boarded, after, .onBoard),
        (.cancel, .rider, .cancelled, .notReached, before, .status(.cancelled)),
        (.cancel, .rider, .noShow, .noShow, after, .status(.noShow)),
        (.cancel, .rider, .completed, .boarded, after, .status(.completed)),
        // The office cancels at any time, unless the rider is aboard.
        (.cancel, .dispatcher, .approved, .notReached, after, nil),
        (.cancel, .dispatcher, .approved, .arrived, after, nil),
        (.cancel, .dispatcher, .approved, .boarded, after, .onBoard),
        (.cancel, .dispatcher, .rejected, .notReached, before, .status(.rejected)),
        // The office marks a no-show or completion only after the pickup time; a boarded rider is no no-show.
        (.noShow, .dispatcher, .approved, .arrived, after, nil),
        (.noShow, .dispatcher, .approved, .notReached, before, .beforePickup),
        (.noShow, .dispatcher, .approved, .boarded, after, .onBoard),
        (.noShow, .dispatcher, .pending, .notReached, after, .status(.pending)),
        (.complete, .dispatcher, .approved, .boarded, after, nil),
        (.complete, .dispatcher, .approved, .notReached, before, .beforePickup),
        (.complete, .dispatcher, .cancelled, .notReached, after, .status(.cancelled)),
    ]

    @Test(arguments: cases.indices)
    func eachCaseIsDecidedAsTheOfficeRuleSays(_ index: Int) {
        let c = Self.cases[index]
        #expect(
            RidePolicy.refusal(c.action, by: c.actor, status: c.status, pickupAt: Self.pickup, progress: c.progress, now: c.now) == c.expected,
            "\(c)")
    }

    @Test func everyRefusalSaysWhatToDo() {
        #expect(RidePolicy.sentence(.onBoard, .cancel, by: .rider) == "you are on board the van; to change where you get off, tell the driver")
        #expect(RidePolicy.sentence(.afterPickup, .cancel, by: .rider) == "the pickup time has passed; call the dispatcher")
        #expect(RidePolicy.sentence(.status(.noShow), .cancel, by: .rider) == "the ride is no show and cannot be cancelled")
        #expect(RidePolicy.sentence(.onBoard, .noShow, by: .dispatcher).contains("the driver undoes it"))
    }
}
