import Foundation
import VanDomain
import VanPostgres
import VanServices

/// The day board's reads and the ride page's move: ``DayBoard`` and ``RideQueries`` for the
/// reads, ``DispatchService/move(_:at:van:actor:now:)`` for the move (`vanadmin rides move`'s checks).
extension WebDispatchActions {

    /// The board of `day`, with ETAs on the vans on the road when it is today, and `page` of
    /// van `van`'s stops in full.
    func board(_ day: LocalDate, van: Int64? = nil, page: DayBoard.StopPage = .current) async throws -> DayBoard {
        try await DayBoard.load(pool: pool, day: day, timeZone: timeZone, now: now, eta: eta, van: van, page: page)
    }

    /// The requests of `day` and its denials as counted now (docs/denials.md).
    func denials(_ day: LocalDate) async throws -> DenialTally {
        try await DenialReport.load(pool: pool, from: day, to: day, timeZone: timeZone, now: now)
    }

    /// Everything the ride's page shows: the ride with its rider, its history, and its actual times.
    func rideDetails(_ ref: RideRef) async throws -> (RideQueries.Listing, [RideQueries.HistoryEntry], DayBoard.RideActuals)? {
        let shown: (RideQueries.Listing, [RideQueries.HistoryEntry])
        do {
            shown = try await RideQueries(pool: pool).show(ref.rawValue)
        } catch DispatchService.DispatchError.notFound {
            return nil
        }
        let (listing, history) = shown
        return (listing, history, try await DayBoard.actuals(pool: pool, ride: listing.ride.id))
    }

    /// The active vans' names, for the move form.
    func vanNames() async throws -> [String] {
        try await pool.withConnection { conn in
            try conn.query("SELECT name FROM vans WHERE active ORDER BY name").map { try $0.decode(String.self, "name") }
        }
    }

    /// Moves ride `ref` to `at` and/or van `van`, audited as `actor` (`vanadmin rides move --as`).
    func move(_ ref: RideRef, at time: Date?, van: String?, actor: String) async throws -> Ride {
        try await dispatch.move(ref.rawValue, at: time, van: van, actor: actor, now: now)
    }

    /// Who kept ride `id` on its van (a dispatcher's move naming it), or nil.
    func vanPinnedBy(_ id: UUID) async throws -> String? {
        try await RideQueries(pool: pool).vanPinnedBy(id)
    }

    /// Lets the planner move ride `ref` to another van again (`vanadmin rides unpin --as`).
    func unpin(_ ref: RideRef, actor: String) async throws -> Bool {
        try await dispatch.unpin(ref.rawValue, actor: actor, now: now)
    }
}
