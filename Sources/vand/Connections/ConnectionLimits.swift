import Synchronization

/// The open connections of one listener, counted against its ``ConnectionCaps``. Each
/// connection is admitted once, when it is accepted, and released when it closes.
final class ConnectionLimits: Sendable {
    /// What an accepted connection may do.
    enum Admission: Sendable, Equatable {
        /// Served as usual.
        case served
        /// Over the cap, inside the reserve: `/healthz` and `/readyz` answered, anything else a 503.
        case reserve
        /// Past the reserve too: closed at once.
        case refused
    }

    let caps: ConnectionCaps
    private let open = Atomic<Int>(0)

    init(caps: ConnectionCaps) { self.caps = caps }

    /// Connections open now.
    var openCount: Int { open.load(ordering: .relaxed) }

    /// Counts a new connection in and says what it may do.
    func admit() -> Admission {
        let count = open.wrappingAdd(1, ordering: .relaxed).newValue
        if count <= caps.served { return .served }
        return count <= caps.served + caps.reserve ? .reserve : .refused
    }

    /// Counts a closed connection out.
    func release() { open.wrappingSubtract(1, ordering: .relaxed) }
}
