import Foundation

/// The simulation's agenda: what happens next, earliest first (ties in the order they were added).
struct SimulationEvents {
    /// Something that happens at a time.
    enum Kind: Sendable {
        /// A van's driver acts (drives on, arrives, taps).
        case van(Int)
        /// A rider books the same day (a request of the day, by index).
        case book(Int)
        /// A rider cancels late (a request of the day, by index).
        case cancel(Int)
        /// The planner looks at the road (and re-plans, in the run with re-planning).
        case replan
        /// The ETA of a ride's pickup is taken, 15 minutes before its window (a request, by index).
        case eta(Int)
        /// A rider with a will-call says she is ready (her ride there, by id; the try, from 0).
        case ready(UUID, attempt: Int)
    }

    private var heap: [(at: Date, order: Int, kind: Kind)] = []
    private var added = 0

    /// Whether nothing is left.
    var isEmpty: Bool { heap.isEmpty }

    /// Adds `kind` at `at`.
    mutating func add(_ kind: Kind, at: Date) {
        heap.append((at, added, kind))
        added += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Takes the earliest.
    mutating func next() -> (at: Date, kind: Kind)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, Self.before(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count, Self.before(heap[right], heap[smallest]) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return (first.at, first.kind)
    }

    private static func before(_ a: (at: Date, order: Int, kind: Kind), _ b: (at: Date, order: Int, kind: Kind)) -> Bool {
        a.at != b.at ? a.at < b.at : a.order < b.order
    }
}
