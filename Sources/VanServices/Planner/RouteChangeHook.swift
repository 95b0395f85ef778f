import Foundation

/// How a writer says, after its transaction committed, that the routes around a time changed
/// (a ride booked or cancelled), so the background planner (``RouteImprover``) looks at that
/// day again. Calling it is cheap and never blocks; ``none`` listens to nothing.
public struct RouteChangeHook: Sendable {
    private let notify: @Sendable (Date) -> Void

    /// A hook that passes each time a ride was written around to `notify`.
    public init(_ notify: @escaping @Sendable (Date) -> Void) {
        self.notify = notify
    }

    /// A hook nobody listens to (tools, tests, a process without background improvement).
    public static let none = RouteChangeHook { _ in }

    /// Says the routes around `time` (a ride's planned pickup) changed.
    public func changed(around time: Date) { notify(time) }
}
