import Foundation
import VanDomain

/// Why a requested pickup time cannot be booked.
public enum Infeasibility: Hashable, Sendable {
    /// Some part of the trip falls outside the service hours.
    case outsideServiceHours
    /// Some part of the trip falls on a closure day (a whole local day in the service zone).
    case closed(LocalDate)
    /// Every suitable van is busy then, counting deadhead to and from neighbouring rides.
    case occupied
    /// The rider needs a wheelchair position and no active van (or not the chosen van) has one.
    case noWheelchairVan
    /// No van is active (or the chosen van is unknown or retired).
    case noActiveVan

    /// A stable snake_case code for APIs, e.g. `"outside_service_hours"`.
    public var code: String {
        switch self {
        case .outsideServiceHours: "outside_service_hours"
        case .closed: "closed"
        case .occupied: "occupied"
        case .noWheelchairVan: "no_wheelchair_van"
        case .noActiveVan: "no_active_van"
        }
    }
}
