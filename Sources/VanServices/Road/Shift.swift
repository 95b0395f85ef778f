import Foundation
import VanDomain

/// One driver on one van, from start to end (`shifts`, sql/0028).
public struct Shift: Sendable, Hashable, Codable {
    /// The shift's id.
    public let id: Int64
    /// The driver.
    public let driverNetID: NetID
    /// The van.
    public let vanID: Int64
    /// The van's name.
    public let vanName: String
    /// When it started.
    public let startedAt: Date
    /// When it ended (nil while open).
    public let endedAt: Date?
    /// Who ended it: the driver's net ID, or `vanadmin`'s actor.
    public let endedBy: String?

    /// Creates a value.
    public init(id: Int64, driverNetID: NetID, vanID: Int64, vanName: String, startedAt: Date, endedAt: Date? = nil, endedBy: String? = nil) {
        self.id = id
        self.driverNetID = driverNetID
        self.vanID = vanID
        self.vanName = vanName
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.endedBy = endedBy
    }

    /// Whether the shift is still open.
    public var isOpen: Bool { endedAt == nil }
}
