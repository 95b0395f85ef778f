import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

@Suite struct RideStatusTests {
    /// The lifecycle from the design brief, written out independently of the code.
    static let allowed: Set<[RideStatus]> = [
        [.pending, .approved], [.pending, .rejected], [.pending, .cancelled],
        [.approved, .cancelled], [.approved, .completed], [.approved, .noShow],
    ]

    @Test(arguments: RideStatus.allCases, RideStatus.allCases)
    func transitionMatchesTable(from: RideStatus, to: RideStatus) throws {
        let expected = Self.allowed.contains([from, to])
        #expect(from.canTransition(to: to) == expected)
        if expected {
            #expect(try from.transition(to: to) == to)
        } else {
            #expect(throws: RideTransitionError(from: from, to: to)) { try from.transition(to: to) }
            let message = RideTransitionError(from: from, to: to).description
            #expect(message.contains(to.phrase))
            #expect(message.contains(from.phrase))
        }
    }

    /// The driver's undo is the only way back from an ended status, and only to approved: no
    /// transition takes it, and nothing else is restored.
    @Test(arguments: RideStatus.allCases, RideStatus.allCases)
    func onlyAnUndoneNoShowOrDropOffIsRestoredAndOnlyToApproved(from: RideStatus, to: RideStatus) {
        let restored = from.canBeRestored(to: to)
        #expect(restored == ((from == .noShow || from == .completed) && to == .approved), "\(from) → \(to)")
        if restored { #expect(!from.canTransition(to: to), "a restore is no transition") }
    }

    @Test func holdsVanOnlyWhilePendingOrApproved() {
        #expect(RideStatus.allCases.filter(\.holdsVan) == [.pending, .approved])
    }

    @Test func finalStatusesAreTheOnesWithNoWayOut() {
        #expect(RideStatus.allCases.filter(\.isFinal) == [.rejected, .cancelled, .completed, .noShow])
        #expect(RideStatus.approved.allowedNextStatuses == [.cancelled, .completed, .noShow])
    }

    @Test func rawValuesMatchTheDatabase() {
        #expect(RideStatus.noShow.rawValue == "no_show")
        #expect(RideKind.onDemand.rawValue == "on_demand")
        #expect(RideKind.scheduled.rawValue == "scheduled")
    }

    @Test func errorsSayWhatIsAllowed() {
        #expect(
            RideTransitionError(from: .rejected, to: .approved).description
                == "a rejected ride cannot become approved; only pending rides can be approved or rejected, and a rejected ride is final"
        )
        #expect(
            RideTransitionError(from: .pending, to: .completed).description
                == "a pending ride cannot become completed; only approved rides can be marked completed or no-show, and a pending ride can only become approved, rejected or cancelled"
        )
        #expect(
            RideTransitionError(from: .approved, to: .approved).description
                == "the ride is already approved; an approved ride can only become cancelled, completed or no-show"
        )
        #expect(
            RideTransitionError(from: .approved, to: .pending).description
                == "an approved ride cannot become pending; no ride can go back to pending (book a new ride instead), and an approved ride can only become cancelled, completed or no-show"
        )
    }
}
