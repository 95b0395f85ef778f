import Foundation
import Testing
@testable import VanDomain

/// The record under the no-show policy, judged against the policy's definition written out
/// here on its own (not from the record's code): a no-show counts when the van arrived by the
/// window's end and the driver waited the full wait from the later of her arrival, the window's
/// start and the time the rider was told; a late cancellation counts when the policy says so; an
/// excused trip never counts.
@Suite("The no-show record")
struct NoShowRecordTests {
    static let rule = NoShowRule(wait: 300)
    static let now = Date(timeIntervalSince1970: 1_795_953_600)

    /// A random day of trips over the last 40 days.
    static func randomTrips(_ rng: inout SeededGenerator, count: Int) -> [NoShowRecord.Trip] {
        (0..<count).map { index in
            let pickup = now.addingTimeInterval(-Double(Int.random(in: 0...(40 * 24), using: &rng)) * 3_600)
            let window = DateInterval(start: pickup, duration: Double(Int.random(in: 0...3, using: &rng)) * 300)
            let statuses: [RideStatus] = [.noShow, .noShow, .noShow, .completed, .completed, .cancelled, .approved, .pending]
            let status = statuses.randomElement(using: &rng)!
            var trip = NoShowRecord.Trip(
                rideID: UUID(), ref: "R\(index)", pickupAt: pickup, status: status, cancelledLate: Bool.random(using: &rng),
                pickupWindow: window)
            if status == .noShow {
                if Int.random(in: 0..<8, using: &rng) > 0 {
                    trip.arrivedAt = window.start.addingTimeInterval(Double(Int.random(in: -20...40, using: &rng)) * 60)
                }
                if let arrived = trip.arrivedAt, Int.random(in: 0..<8, using: &rng) > 0 {
                    trip.noShowAt = max(arrived, window.start).addingTimeInterval(Double(Int.random(in: 0...12, using: &rng)) * 60)
                }
                if Int.random(in: 0..<5, using: &rng) == 0 {
                    trip.toldETA = window.start.addingTimeInterval(Double(Int.random(in: 0...20, using: &rng)) * 60)
                }
            }
            if Int.random(in: 0..<10, using: &rng) == 0 { trip.excusedFor = "ill" }
            return trip
        }
    }

    /// Whether `trip` counts, from the policy's words.
    static func countsByDefinition(_ trip: NoShowRecord.Trip, lateCancelsCount: Bool) -> Bool {
        if trip.excusedFor != nil { return false }
        switch trip.status {
        case .noShow:
            guard let arrived = trip.arrivedAt, let marked = trip.noShowAt, arrived <= trip.pickupWindow.end else { return false }
            let waitedFrom = [arrived, trip.pickupWindow.start, trip.toldETA ?? trip.pickupWindow.start].max()!
            return marked.timeIntervalSince(waitedFrom) >= 300
        case .cancelled: return trip.cancelledLate && lateCancelsCount
        default: return false
        }
    }

    @Test(arguments: Array(UInt64(1)...40))
    func aTripTheVanReachedLateNeverCountsAndTheRecordFollowsTheDefinition(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var policy = NoShowPolicy()
        policy.noShows = Int.random(in: 1...4, using: &rng)
        policy.sharePercent = Double(Int.random(in: 0...40, using: &rng))
        policy.lateCancelsCount = Bool.random(using: &rng)
        let trips = Self.randomTrips(&rng, count: Int.random(in: 0...30, using: &rng))
        let record = NoShowRecord(trips: trips, policy: policy, rule: Self.rule, now: Self.now)

        // A trip the van reached after the window's end never counts, however it was recorded.
        for entry in record.entries where (entry.trip.arrivedAt.map { $0 > entry.trip.pickupWindow.end }) ?? false {
            #expect(!entry.verdict.counts, "seed \(seed): \(entry.trip.ref) counted though the van came late")
        }
        // The counted trips, the scheduled trips and the crossing are the definition's.
        let inWindow = trips.filter { $0.pickupAt >= Self.now.addingTimeInterval(-30 * 86_400) && $0.pickupAt <= Self.now }
        let expected = Set(inWindow.filter { Self.countsByDefinition($0, lateCancelsCount: policy.lateCancelsCount) }.map(\.rideID))
        #expect(Set(record.counted.map(\.rideID)) == expected, "seed \(seed)")
        let scheduled = inWindow.filter { [.approved, .completed, .noShow].contains($0.status) || ($0.status == .cancelled && $0.cancelledLate) }
            .count
        #expect(record.scheduled == scheduled)
        let share = scheduled == 0 ? 0 : Double(expected.count) * 100 / Double(scheduled)
        #expect(record.crosses == (expected.count >= policy.noShows && share >= policy.sharePercent), "seed \(seed)")
        // Every trip left out says why.
        for entry in record.entries where !entry.verdict.counts {
            guard case .excluded(let why) = entry.verdict else { continue }
            #expect(!why.sentence(ServiceTime(timeZone: TimeZone(identifier: "America/New_York")!)).isEmpty)
        }
    }

    @Test func eachReasonATripDoesNotCount() {
        let start = Self.now.addingTimeInterval(-86_400)
        let window = DateInterval(start: start, duration: 900)
        func trip(_ status: RideStatus = .noShow, arrived: Double?, marked: Double?, late: Bool = false) -> NoShowRecord.Trip {
            NoShowRecord.Trip(
                rideID: UUID(), ref: "R", pickupAt: start, status: status, cancelledLate: late, pickupWindow: window,
                arrivedAt: arrived.map { start.addingTimeInterval($0 * 60) }, noShowAt: marked.map { start.addingTimeInterval($0 * 60) })
        }
        let policy = NoShowPolicy()
        func verdict(_ t: NoShowRecord.Trip, _ p: NoShowPolicy = NoShowPolicy()) -> NoShowRecord.Verdict {
            NoShowRecord.verdict(t, policy: p, rule: Self.rule)
        }
        #expect(verdict(trip(arrived: 2, marked: 8)) == .counts(.noShow))
        #expect(verdict(trip(arrived: -5, marked: 5)) == .counts(.noShow), "early, then the full wait from the window's start")
        #expect(
            verdict(trip(arrived: -5, marked: 4))
                == .excluded(.waitCut(noShowAt: start.addingTimeInterval(240), allowedFrom: start.addingTimeInterval(300))))
        #expect(verdict(trip(arrived: 16, marked: nil)) == .excluded(.vanLate(arrivedAt: start.addingTimeInterval(960), windowEnd: window.end)))
        #expect(verdict(trip(arrived: nil, marked: nil)) == .excluded(.noTapProof))
        #expect(verdict(trip(arrived: 1, marked: nil)) == .excluded(.noTapProof), "the office's by-hand no-show")
        var excused = trip(arrived: 2, marked: 8)
        excused.excusedFor = "a family emergency"
        #expect(verdict(excused) == .excluded(.excused(reason: "a family emergency")))
        #expect(verdict(trip(.cancelled, arrived: nil, marked: nil, late: true), policy) == .counts(.lateCancel))
        var ignoring = NoShowPolicy()
        ignoring.lateCancelsCount = false
        #expect(verdict(trip(.cancelled, arrived: nil, marked: nil, late: true), ignoring) == .excluded(.lateCancelsIgnored))
    }

    @Test func tripsANoticeNamedAreNotTheGroundsOfAnother() {
        let trips: [NoShowRecord.Trip] = (1...3).map { (day: Int) -> NoShowRecord.Trip in
            let pickup = Self.now.addingTimeInterval(-Double(day) * 86_400)
            let named: Int64? = day == 1 ? nil : 7
            return NoShowRecord.Trip(
                rideID: UUID(), ref: "R\(day)", pickupAt: pickup, status: .noShow, pickupWindow: DateInterval(start: pickup, duration: 600),
                arrivedAt: pickup, noShowAt: pickup.addingTimeInterval(400), namedInNotice: named)
        }
        let record = NoShowRecord(trips: trips, policy: NoShowPolicy(), rule: Self.rule, now: Self.now)
        #expect(record.counted.count == 3 && record.unnoticed.map(\.ref) == ["R1"])
        #expect(!record.crosses)
    }

    @Test func aPolicyWithWrongNumbersNamesEachOption() {
        var policy = NoShowPolicy()
        policy.noShows = 0
        policy.suspendDays = []
        policy.sharePercent = 120
        #expect(policy.problems.map(\.field) == ["no-shows", "share", "suspend-days"])
        #expect(NoShowPolicy().problems.isEmpty)
        #expect(NoShowPolicy().periodDays(step: 9) == 28 && NoShowPolicy().periodDays(step: 2) == 14)
    }
}
