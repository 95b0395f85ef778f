import Foundation
import VanDomain
import VanPostgres
import VanServices

/// What the dispatcher's console reaches: the same services `vanadmin` and the rider API use,
/// in one place. No rule lives here or in the console's routes: approving, moving and booking
/// are the services' (VanServices), so the console, the CLI and the rider book alike.
/// Each part of the console adds its reads in an extension of its own file.
struct WebDispatchActions: Sendable {
    /// Approve, reject, move, cancel (as `vanadmin rides`).
    let dispatch: DispatchService
    /// The one booking path (a rider's own, `vanadmin rides book`, and the console's).
    let booking: BookingService
    /// Riders' rides, for a cancellation a rider asks for on the phone (her own, made for her).
    let rides: RiderRides
    /// The road: shifts, runs, taps, positions.
    let road: Road
    /// ETAs per van from the road.
    let eta: ETAService
    /// The no-show policy: the cases, riders' records, the decisions on appeals.
    let standing: NoShowStanding
    /// For the reads of the console (rides, vans, places, alerts, audit).
    let pool: PGPool
    /// Booking settings: the promise window, the horizon, auto-approve.
    let settings: BookingSettings
    /// The service's time zone.
    let timeZone: TimeZone
    /// The current time (a manual clock in tests).
    let time: any TimeSource
    /// The live stream's feed and its open streams (`GET /dispatch/stream`; nil: not live).
    var live: WebDispatchLive? = nil
    /// Riders' standing series, held and resumed for a rider who phones (nil: not offered).
    var series: SeriesService? = nil

    var now: Date { time.now }

    /// Today in the service's time zone.
    var today: LocalDate { LocalDate(containing: now, in: timeZone) }

    /// The name the audit log records for the console's actions: the dispatcher's name and
    /// net ID ("Dee Dispatcher (dee1)"), as `vanadmin --as` records a name.
    func actor(_ session: AuthenticatedSession) async throws -> String {
        let name = try await pool.withConnection { try RiderStore($0).rider(session.netID)?.name }
        return Self.actor(name: name, netID: session.netID)
    }

    /// "Name (netid)", or the net ID alone for an account without a name; at most 64 characters.
    static func actor(name: String?, netID: NetID) -> String {
        guard let name = name?.trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return netID.rawValue }
        let tail = " (\(netID.rawValue))"
        return String(name.prefix(64 - tail.count)) + tail
    }
}
