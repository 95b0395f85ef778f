import Foundation
import VanDomain
import VanPostgres

extension RidePolicy.Progress {
    /// Where ride `rideID` is on the road: the latest standing tap at its pickup, on `conn`.
    static func read(_ rideID: UUID, _ conn: PGConnection) throws -> RidePolicy.Progress {
        let action = try conn.query(
            """
            SELECT action FROM stop_taps WHERE ride_id = \(rideID) AND stop = 'pickup' AND undone_at IS NULL
            ORDER BY at DESC, id DESC LIMIT 1
            """
        ).first?.decode(String.self, "action")
        return switch action {
        case "boarded": .boarded
        case "no_show": .noShow
        case "arrived": .arrived
        default: .notReached
        }
    }
}
