import Foundation
import VanDomain

/// What a simulated driver does and sees, through the services the driver routes call: the narrow
/// face of the road services the simulation drives (``RoadServicesDesk`` adapts them).
protocol DriverDesk: Sendable {
    /// Starts `driver`'s shift on `van` at `now`.
    func startShift(driver: NetID, van: Int64, now: Date) async throws
    /// The remaining stops of the van `driver` is on, in route order.
    func run(driver: NetID, now: Date) async throws -> [DeskStop]
    /// One tap at a stop; the refusal's sentence when refused.
    func tap(driver: NetID, ride: UUID, pickup: Bool, action: DeskAction, at place: Coordinate, now: Date) async throws -> String?
    /// The van's position, from the driver's phone.
    func position(driver: NetID, _ place: Coordinate, now: Date) async throws
}

/// A tap at a stop.
enum DeskAction: Sendable {
    case arrived, boarded, noShow, droppedOff
}

/// One remaining stop of a van's run, as the driver's page shows it.
struct DeskStop: Hashable, Sendable {
    var rideID: UUID
    var pickup: Bool
    var place: Coordinate
    var promise: RidePromise
    var plannedAt: Date
    var wheelchair: Bool
    /// When the van arrived, if it has.
    var arrivedAt: Date?
    /// From when the driver may tap no-show (an arrived pickup), as the services count it.
    var noShowFrom: Date?
}
