/// What an account is for. A rider books rides; a driver runs a van's stops; a dispatcher
/// keeps the day. Everyone signs in on the same page, and each role reaches only its own
/// routes. Stored as `riders.role` (sql/0028); accounts made by the rider paths are riders.
public enum AccountRole: String, Sendable, Codable, CaseIterable, Hashable {
    /// Books and follows her own rides.
    case rider
    /// Runs the stops of the van of her open shift.
    case driver
    /// Keeps the day: approves, moves and watches rides.
    case dispatcher

    /// The role as a person reads it, e.g. "a driver's".
    public var possessive: String {
        switch self {
        case .rider: "a rider's"
        case .driver: "a driver's"
        case .dispatcher: "a dispatcher's"
        }
    }
}
