import Foundation
import VanDomain
import VanPostgres

/// Van positions: recorded from the phone of the driver on the van's open shift, or from the
/// van's tracker; read as the latest per van (unknown once older than
/// ``RoadSettings/positionStale``); the trail pruned after ``RoadSettings/trailDays``.
public struct PositionService: Sendable {
    let pool: PGPool
    let clock: any TimeSource
    let settings: RoadSettings

    /// Positions over `pool`, timed by `clock`.
    public init(pool: PGPool, clock: any TimeSource, settings: RoadSettings) {
        self.pool = pool
        self.clock = clock
        self.settings = settings
    }

    /// Who is posting a position.
    public enum Poster: Sendable, Hashable {
        /// A driver (by her session): only for the van of her open shift.
        case driver(NetID)
        /// A tracker, by the van its token is for.
        case tracker(vanID: Int64)
    }

    /// Records `fix` for the van `vanID` as `poster`. A fix without a time is taken now; one
    /// with a time more than ``RoadSettings/clockSkew`` ahead, or older than
    /// ``RoadSettings/positionStale`` (it would be stale at once), is refused. At most one fix per
    /// van per second is kept: nil when the van has one in that second already (nothing stored,
    /// nobody told).
    /// - Throws: ``RoadError/notYourVan``, ``RoadError/trackerNotForVan``, ``RoadError/fixInFuture``,
    ///   ``RoadError/fixTooOld(staleAfter:)``.
    public func record(_ fix: PositionFix, vanID: Int64, from poster: Poster) async throws -> VanPosition? {
        let now = clock.now
        let at = try settings.time(of: fix, now: now)
        return try await pool.withTransaction { conn in
            let source: VanPosition.Source
            switch poster {
            case .driver(let netID):
                guard try ShiftStore(conn).open(driver: netID)?.vanID == vanID else { throw RoadError.notYourVan }
                source = .driver
            case .tracker(let tokenVan):
                guard tokenVan == vanID else { throw RoadError.trackerNotForVan }
                source = .tracker
            }
            return try PositionStore(conn).record(vanID: vanID, fix: fix, at: at, source: source)
        }
    }

    /// The van's latest position, however old.
    public func latest(vanID: Int64) async throws -> VanPosition? {
        try await pool.withConnection { try PositionStore($0).latest(vanID: vanID) }
    }

    /// The van's position if it is known now: nil when there is none or it is stale.
    public func current(vanID: Int64) async throws -> VanPosition? {
        let now = clock.now, stale = settings.positionStale
        return try await latest(vanID: vanID).flatMap { $0.isStale(at: now, staleAfter: stale) ? nil : $0 }
    }

    /// Every van's latest position by van id, however old (check ``VanPosition/isStale(at:staleAfter:)``).
    public func latestAll() async throws -> [Int64: VanPosition] {
        let all = try await pool.withConnection { try PositionStore($0).latestAll() }
        return Dictionary(uniqueKeysWithValues: all.map { ($0.vanID, $0) })
    }

    /// The van's trail in `span`, oldest first.
    public func trail(vanID: Int64, in span: DateInterval) async throws -> [VanPosition] {
        try await pool.withConnection { try PositionStore($0).trail(vanID: vanID, in: span) }
    }

    /// Deletes trail fixes older than ``RoadSettings/trailDays``; how many.
    @discardableResult
    public func pruneTrail() async throws -> Int {
        let cutoff = clock.now.addingTimeInterval(-Double(settings.trailDays) * 86_400)
        return try await pool.withConnection { try PositionStore($0).prune(before: cutoff) }
    }
}

extension RoadSettings {
    /// The time a fix is stored at: its own `at` (none: `now`), no later than `now`. One rule for
    /// every way a fix comes in (a tracker's post, a driver's tap).
    /// - Throws: ``RoadError/fixInFuture`` past ``clockSkew`` ahead, ``RoadError/fixTooOld(staleAfter:)``
    ///   older than ``positionStale``.
    func time(of fix: PositionFix, now: Date) throws -> Date {
        guard let at = fix.at else { return now }
        guard at <= now.addingTimeInterval(clockSkew) else { throw RoadError.fixInFuture }
        guard at >= now.addingTimeInterval(-positionStale) else { throw RoadError.fixTooOld(staleAfter: positionStale) }
        return min(at, now)
    }
}
