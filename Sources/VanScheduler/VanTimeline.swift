import Foundation
import VanDomain

/// One van's booked rides sorted for fast neighbour lookups (internal to the scheduler).
///
/// Rides are sorted by pickup; `latestEnding[i]` is the index of the ride that ends last among
/// `rides[0...i]`, so overlap and the previous neighbour are found with one binary search even
/// if stored rides happen to overlap each other.
struct VanTimeline: Sendable {
    let van: Van
    let rides: [BookedRide]
    private let pickups: [TimeInterval]
    private let latestEnding: [Int]

    /// Sorts `rides` (all on `van`) by pickup, then drop-off, then id, for determinism.
    init(van: Van, rides: [BookedRide]) {
        self.van = van
        let sorted = rides.sorted { a, b in
            if a.pickupAt != b.pickupAt { return a.pickupAt < b.pickupAt }
            if a.dropoffAt != b.dropoffAt { return a.dropoffAt < b.dropoffAt }
            return a.id.uuidString < b.id.uuidString
        }
        self.rides = sorted
        self.pickups = sorted.map(\.pickupAt.timeIntervalSinceReferenceDate)
        var latest: [Int] = []
        latest.reserveCapacity(sorted.count)
        for (index, ride) in sorted.enumerated() {
            if let last = latest.last, sorted[last].dropoffAt > ride.dropoffAt {
                latest.append(last)
            } else {
                latest.append(index)
            }
        }
        self.latestEnding = latest
    }

    /// The idle gap left if the van took a trip `[p, d]` from `pickup` to `dropoff`, or `nil`
    /// when the trip overlaps a ride or lacks deadhead to or from its neighbours.
    ///
    /// The previous neighbour is the latest-ending ride that starts before `d`; the next is the
    /// earliest-starting ride at or after `d` (all of them if several start together).
    /// Each side's slack is capped at `cap`, which is also the slack of a side with no neighbour.
    func idleGap(
        pickupAt p: Date, dropoffAt d: Date, pickup: Coordinate?, dropoff: Coordinate?,
        estimator: TripEstimator, cap: TimeInterval
    ) -> TimeInterval? {
        let nextIndex = firstIndex(pickupAtOrAfter: d.timeIntervalSinceReferenceDate)
        var before = cap
        if nextIndex > 0 {
            let previous = rides[latestEnding[nextIndex - 1]]
            guard previous.dropoffAt <= p else { return nil } // overlap
            let ready = previous.dropoffAt.addingTimeInterval(estimator.deadhead(from: previous.dropoff, to: pickup))
            guard ready <= p else { return nil }
            before = min(cap, p.timeIntervalSince(ready))
        }
        var after = cap
        var index = nextIndex
        while index < rides.count, rides[index].pickupAt == rides[nextIndex].pickupAt {
            let next = rides[index]
            let free = d.addingTimeInterval(estimator.deadhead(from: dropoff, to: next.pickup))
            guard free <= next.pickupAt else { return nil }
            after = min(after, next.pickupAt.timeIntervalSince(free))
            index += 1
        }
        return before + after
    }

    /// The index of the first ride whose pickup is at or after `time` (seconds since the reference date).
    private func firstIndex(pickupAtOrAfter time: TimeInterval) -> Int {
        var low = 0
        var high = pickups.count
        while low < high {
            let mid = (low + high) / 2
            if pickups[mid] < time { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
