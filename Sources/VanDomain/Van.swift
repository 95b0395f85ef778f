import Foundation

/// One vehicle in the fleet and what it can carry.
public struct Van: Hashable, Sendable, Codable {
    /// Database id.
    public let id: Int64
    /// What the dispatcher calls it, e.g. `"Van 2"`.
    public var name: String
    /// Passenger seats, at least 1.
    public let seats: Int
    /// Secured wheelchair positions, 0 or more.
    public let wheelchairPositions: Int
    /// Whether the van is in service; inactive vans get no new rides.
    public var active: Bool

    /// Creates a van after checking its capacity.
    /// - Throws: `ValidationError` with field `"seats"` or `"wheelchair_positions"`.
    public init(id: Int64, name: String, seats: Int, wheelchairPositions: Int, active: Bool = true) throws(ValidationError) {
        guard seats >= 1 else {
            throw ValidationError(field: "seats", reason: "must be at least 1, got \(seats)")
        }
        guard wheelchairPositions >= 0 else {
            throw ValidationError(field: "wheelchair_positions", reason: "must be 0 or more, got \(wheelchairPositions)")
        }
        self.id = id
        self.name = name
        self.seats = seats
        self.wheelchairPositions = wheelchairPositions
        self.active = active
    }

    /// Whether a rider who needs a wheelchair position can ride in this van.
    public var canCarryWheelchair: Bool { wheelchairPositions > 0 }

    private enum CodingKeys: String, CodingKey {
        case id, name, seats, wheelchairPositions, active
    }

    /// Decodes and validates like `init(id:name:seats:wheelchairPositions:active:)`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            id: container.decode(Int64.self, forKey: .id),
            name: container.decode(String.self, forKey: .name),
            seats: container.decode(Int.self, forKey: .seats),
            wheelchairPositions: container.decode(Int.self, forKey: .wheelchairPositions),
            active: container.decode(Bool.self, forKey: .active)
        )
    }
}
