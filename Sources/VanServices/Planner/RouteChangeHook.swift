import Foundation

/// How a writer says, after its transaction committed, that the routes around a time changed
/// (a ride booked or cancelled), so the background planner (``RouteImprover``) looks at that
/// day again; and how the ETAs say a van on the road runs late, so it re-plans the day from the
/// road at once. Calling it is cheap and never blocks; ``none`` listens to nothing.
public struct RouteChangeHook: Sendable {
    private let notify: @Sendable (Date) -> Void
    private let late: @Sendable () -> Void

    /// A hook that passes each time a ride was written around to `notify`, and each van found
    /// running late to `late`.
    public init(_ notify: @escaping @Sendable (Date) -> Void, late: @escaping @Sendable () -> Void = {}) {
        self.notify = notify
        self.late = late
    }

    /// Says a van on the road runs late: a stop's ETA passed its promised window's end.
    public func roadRunsLate() { late() }

    /// A hook nobody listens to (tools, tests, a process without background improvement).
    public static let none = RouteChangeHook { _ in }

    /// Says the routes around `time` (a ride's planned pickup) changed.
    public func changed(around time: Date) { notify(time) }
}
