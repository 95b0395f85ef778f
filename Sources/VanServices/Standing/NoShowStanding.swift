import Foundation
import VanDomain
import VanPostgres

/// A rider's standing under the no-show policy: her record and her cases.
public struct RiderStanding: Sendable {
    /// The rider.
    public var netID: String
    /// Her record in the policy's window.
    public var record: NoShowRecord
    /// Her cases, newest first.
    public var cases: [Suspension]
}

/// The no-show policy at work (issue 34, 49 CFR 37.125(h)): the office's policy, a rider's fair
/// record, the written notice when it crosses the policy, her appeal, the office's decision, and
/// the suspension's start. The booking enforces a suspension itself (``BookingService``), so that
/// every way in refuses her alike.
///
/// The record is judged by the same no-show rule the driver's taps were held to
/// (``RoadSettings/noShowRule``). Every change is audited; a notice and a decision reach her
/// inbox, the notification stream and the dispatcher's webhook as events on the trip that crossed.
public struct NoShowStanding: Sendable {
    let pool: PGPool
    let rule: NoShowRule
    let letters: SuspensionLetters
    let timeZone: TimeZone

    /// The policy on `pool`, judging no-shows by `rule`, its letters in `timeZone` naming `hotline`.
    public init(pool: PGPool, rule: NoShowRule, timeZone: TimeZone, hotline: String?) {
        self.pool = pool
        self.rule = rule
        self.timeZone = timeZone
        letters = SuspensionLetters(timeZone: timeZone, hotline: hotline)
    }

    private func today(_ now: Date) -> LocalDate { LocalDate(containing: now, in: timeZone) }

    // MARK: The policy

    /// The office's policy.
    public func policy() async throws -> NoShowPolicy {
        try await pool.withConnection { conn in try SuspensionStore.policy(conn) }
    }

    /// Changes the policy; audited with the old and the new numbers.
    public func setPolicy(_ policy: NoShowPolicy, actor: String) async throws {
        let problems = policy.problems
        guard problems.isEmpty else { throw StandingError.invalidPolicy(problems) }
        try await pool.withTransaction { conn in
            let old = try SuspensionStore.policy(conn)
            try SuspensionStore.setPolicy(policy, actor: actor, conn)
            try AuditLog.record(
                conn, actor: actor, action: "policy.set", subject: "no_show_policy",
                details: ["old": PGJSON(old).postgresText ?? "", "new": PGJSON(policy).postgresText ?? ""])
        }
    }

    // MARK: The record

    /// `netID`'s record and cases at `now`.
    public func standing(_ netID: String, now: Date) async throws -> RiderStanding {
        try await pool.withConnection { conn in try standing(netID, now: now, conn) }
    }

    private func standing(_ netID: String, now: Date, _ conn: PGConnection) throws -> RiderStanding {
        let policy = try SuspensionStore.policy(conn)
        let span = DateInterval(start: now.addingTimeInterval(-Double(policy.withinDays) * 86_400), end: now)
        let record = NoShowRecord(trips: try SuspensionStore.trips(netID, in: span, conn), policy: policy, rule: rule, now: now)
        return RiderStanding(netID: netID, record: record, cases: try SuspensionStore.cases(where: "s.net_id = \(netID)", conn))
    }

    /// Excuses a missed trip (illness, a family emergency, a wrong address from us): it never
    /// counts. Audited. Answers the ride's reference and rider.
    @discardableResult
    public func excuse(_ ride: String, reason: String, actor: String, now: Date) async throws -> (ref: String, netID: String) {
        let reason = try Self.text(reason, field: "--reason", limit: 500)
        return try await pool.withTransaction { conn in
            let id: UUID
            do { id = try RideQueries.resolve(ride, conn) } catch { throw StandingError.unknownRide(ride) }
            guard let row = try conn.query("SELECT ref, net_id, status, cancelled_late FROM rides WHERE id = \(id) FOR UPDATE").first
            else { throw StandingError.unknownRide(ride) }
            let ref = try row.decode(String.self, "ref")
            let netID = try row.decode(String.self, "net_id")
            let status = RideStatus(rawValue: try row.decode(String.self, "status")) ?? .pending
            let cancelledLate = try row.decode(Bool.self, "cancelled_late")
            guard status == .noShow || (status == .cancelled && cancelledLate) else {
                throw StandingError.notMissed(ref: ref, status: status)
            }
            let added = try conn.query(
                """
                INSERT INTO noshow_excusals (ride_id, reason, excused_by, excused_at) VALUES (\(id), \(reason), \(actor), \(now))
                ON CONFLICT (ride_id) DO NOTHING RETURNING ride_id
                """)
            guard added.count > 0 else { throw StandingError.alreadyExcused(ref: ref) }
            try AuditLog.record(
                conn, actor: actor, action: "noshow.excuse", subject: id.uuidString.lowercased(),
                details: ["rider": netID, "ref": ref, "reason": reason])
            return (ref, netID)
        }
    }

    // MARK: Notice

    /// Reviews `netID`'s record at `now` and, when it crosses the policy and no case of hers is
    /// open, proposes a suspension and sends the notice. Runs under her booking lock; two reviews
    /// of one record propose one case (`suspensions_one_notice_per_crossing`). Answers the new case.
    @discardableResult
    public func review(_ netID: String, now: Date) async throws -> Suspension? {
        try await pool.withTransaction { conn in try review(netID, now: now, conn) }
    }

    private func review(_ netID: String, now: Date, _ conn: PGConnection) throws -> Suspension? {
        try conn.query(
            ("SELECT pg_advisory_xact_lock(hashtextextended('vand_rider:' || \(netID), 0))" as SQLQuery).prepared())
        let today = today(now)
        let open = try SuspensionStore.cases(
            where: "s.net_id = \(netID) AND s.status <> 'overturned' AND s.ends_on > \(today)", conn)
        guard open.isEmpty else { return nil }
        let standing = try standing(netID, now: now, conn)
        let record = standing.record
        guard record.crosses, let anchor = record.unnoticed.last else { return nil }
        let policy = record.policy
        let earlier = standing.cases.filter {
            $0.startedAt != nil && $0.status != .overturned && $0.startsOn.dayNumber > today.dayNumber - NoShowPolicy.stepMemoryDays
        }.count
        let step = earlier + 1
        let period = policy.periodDays(step: step)
        let startsOn = LocalDate(dayNumber: today.dayNumber + policy.noticeDays)
        let endsOn = LocalDate(dayNumber: startsOn.dayNumber + period)
        let appealBy = LocalDate(dayNumber: today.dayNumber + policy.appealDays)
        let tripIDs = record.unnoticed.map(\.rideID)
        guard
            let id = try conn.query(
                """
                INSERT INTO suspensions (net_id, anchor_ride_id, trips, step, period_days, noticed_at, starts_on, ends_on, appeal_by)
                VALUES (\(netID), \(anchor.rideID), \(tripIDs.postgresArrayLiteral)::uuid[], \(step), \(period), \(now),
                        \(startsOn), \(endsOn), \(appealBy))
                ON CONFLICT (net_id, anchor_ride_id) DO NOTHING
                RETURNING id
                """
            ).first?.decode(Int64.self, "id")
        else { return nil }
        guard let suspension = try SuspensionStore.cases(where: "s.id = \(id)", conn).first else { return nil }
        try SuspensionStore.writeEvent(.suspensionNotice, suspension, letter: letters.notice(suspension), toRider: true, conn)
        try AuditLog.record(
            conn, actor: "vand", action: "suspension.notice", subject: netID,
            details: [
                "case": String(id), "trips": suspension.trips.map(\.ref).joined(separator: ","), "step": String(step),
                "starts_on": startsOn.rawValue, "ends_on": endsOn.rawValue,
            ])
        return suspension
    }

    /// Reviews every rider whose record changed since the last review (a no-show, a late
    /// cancellation), claimed `FOR UPDATE SKIP LOCKED` so any number of loops share the queue.
    /// Answers the cases proposed.
    public func reviewQueued(now: Date, limit: Int = 50) async throws -> [Suspension] {
        var proposed: [Suspension] = []
        while true {
            let (batch, count) = try await pool.withTransaction { conn -> ([Suspension], Int) in
                let riders = try conn.query(
                    """
                    DELETE FROM standing_reviews WHERE net_id IN (
                        SELECT net_id FROM standing_reviews ORDER BY queued_at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                    RETURNING net_id
                    """
                ).map { try $0.decode(String.self, "net_id") }
                return (try riders.compactMap { try review($0, now: now, conn) }, riders.count)
            }
            proposed += batch
            if count < limit { return proposed }
        }
    }

    // MARK: Appeal and decision

    /// Files her appeal of the open notice, in time: the suspension is on hold until decided.
    /// `filedBy` is she herself, or the dispatcher who took her call. Audited; she gets a receipt.
    @discardableResult
    public func appeal(_ netID: String, text: String, filedBy: String, now: Date) async throws -> Suspension {
        let text = try Self.text(text, field: "text", limit: 2000)
        let today = today(now)
        return try await pool.withTransaction { conn in
            guard
                let open = try SuspensionStore.cases(
                    where: "s.net_id = \(netID) AND s.status = 'proposed' AND s.ends_on > \(today)", conn, lock: true
                ).first
            else { throw StandingError.nothingToAppeal(netID: netID) }
            guard open.canAppeal(on: today) else { throw StandingError.appealClosed(netID: netID, appealBy: open.appealBy) }
            try conn.execute(
                """
                UPDATE suspensions SET status = 'appealed', appeal_text = \(text), appeal_filed_at = \(now), appeal_filed_by = \(filedBy)
                WHERE id = \(open.id)
                """)
            guard let appealed = try SuspensionStore.cases(where: "s.id = \(open.id)", conn).first else { throw StandingError.unknownCase(open.id) }
            try SuspensionStore.writeEvent(.appealFiled, appealed, letter: letters.appealReceived(appealed), toRider: true, conn)
            try AuditLog.record(
                conn, actor: filedBy, action: "suspension.appeal", subject: netID, details: ["case": String(open.id), "text": text])
            return appealed
        }
    }

    /// Decides an appeal: upheld (the suspension starts on its day, or today if that has passed,
    /// for its whole period, and its start runs again: rides booked while it was on hold are
    /// cancelled) or overturned. The written decision, with `reason`, reaches her. Audited.
    @discardableResult
    public func decide(_ id: Int64, uphold: Bool, reason: String, actor: String, now: Date) async throws -> Suspension {
        let reason = try Self.text(reason, field: "--reason", limit: 1000)
        let today = today(now)
        return try await pool.withTransaction { conn in
            guard let found = try SuspensionStore.cases(where: "s.id = \(id)", conn, lock: true).first else {
                throw StandingError.unknownCase(id)
            }
            guard found.status == .appealed else { throw StandingError.notAppealed(id: id, status: found.status) }
            let startsOn = max(found.startsOn, today)
            let endsOn = LocalDate(dayNumber: startsOn.dayNumber + found.periodDays)
            try conn.execute(
                """
                UPDATE suspensions SET status = \(uphold ? "upheld" : "overturned"), decided_at = \(now), decided_by = \(actor),
                       decision_reason = \(reason), starts_on = \(uphold ? startsOn : found.startsOn), ends_on = \(uphold ? endsOn : found.endsOn),
                       started_at = CASE WHEN \(uphold) THEN NULL ELSE started_at END
                WHERE id = \(id)
                """)
            guard let decided = try SuspensionStore.cases(where: "s.id = \(id)", conn).first else { throw StandingError.unknownCase(id) }
            try SuspensionStore.writeEvent(.suspensionDecided, decided, letter: letters.decision(decided), toRider: true, conn)
            try AuditLog.record(
                conn, actor: actor, action: uphold ? "suspension.uphold" : "suspension.overturn", subject: found.netID,
                details: ["case": String(id), "reason": reason])
            return decided
        }
    }

    /// `netID`'s case that keeps her from riding now or will (proposed or upheld, its period not
    /// over), or nil: what her booking forms say before she fills them in.
    public func suspensionAhead(_ netID: String, now: Date) async throws -> Suspension? {
        let today = today(now)
        return try await pool.withConnection { conn in
            try SuspensionStore.cases(where: "s.net_id = \(netID) AND s.status IN ('proposed', 'upheld') AND s.ends_on > \(today)", conn).last
        }
    }

    /// The cases, newest first: all, or only those open on `now`'s day (under notice, on hold, in effect).
    public func cases(openOnly: Bool, now: Date) async throws -> [Suspension] {
        let today = today(now)
        return try await pool.withConnection { conn in
            try SuspensionStore.cases(where: openOnly ? "s.status <> 'overturned' AND s.ends_on > \(today)" : "true", conn)
        }
    }

    // MARK: The suspension's start

    /// Starts every suspension whose first day has come (not appealed, or upheld): cancels her
    /// rides in the period, each with the reason (she hears of each), except those the office
    /// booked over it. Each case starts once (`FOR UPDATE SKIP LOCKED`). Answers the rides cancelled.
    @discardableResult
    public func startDue(now: Date) async throws -> Int {
        let today = today(now)
        let zone = timeZone
        return try await pool.withTransaction { conn in
            let due = try SuspensionStore.cases(
                where: """
                    s.id IN (SELECT id FROM suspensions WHERE started_at IS NULL AND status IN ('proposed', 'upheld')
                             AND starts_on <= \(today) FOR UPDATE SKIP LOCKED)
                    """, conn)
            var cancelled = 0
            for suspension in due {
                try TransactionActor.set("vand (no-show policy)", conn)
                let start = suspension.startsOn.interval(in: zone).start
                let end = suspension.endsOn.interval(in: zone).start
                cancelled += try conn.query(
                    """
                    UPDATE rides r SET status = 'cancelled', cancelled_by = 'service', cancelled_at = \(now), updated_at = \(now),
                                       reason = \(letters.cancellationReason(suspension))
                    WHERE r.net_id = \(suspension.netID) AND r.status IN ('pending', 'approved')
                      AND r.pickup_at >= \(max(start, now)) AND r.pickup_at < \(end)
                      AND NOT EXISTS (SELECT 1 FROM suspension_overrides o WHERE o.ride_id = r.id)
                      AND NOT EXISTS (SELECT 1 FROM stop_taps t WHERE t.ride_id = r.id AND t.undone_at IS NULL)
                    RETURNING r.id
                    """
                ).count
                try conn.execute("UPDATE suspensions SET started_at = \(now) WHERE id = \(suspension.id)")
                try AuditLog.record(
                    conn, actor: "vand", action: "suspension.start", subject: suspension.netID,
                    details: ["case": String(suspension.id), "ends_on": suspension.endsOn.rawValue])
            }
            return cancelled
        }
    }

    /// The start of the next day a suspension begins on (nil: none waits), for the loop's wake-up.
    public func nextStart(after now: Date) async throws -> Date? {
        let zone = timeZone
        return try await pool.withConnection { conn in
            try conn.query(
                """
                SELECT min(starts_on) AS day FROM suspensions WHERE started_at IS NULL AND status IN ('proposed', 'upheld')
                """
            ).first?.decode(LocalDate?.self, "day").map { max($0.interval(in: zone).start, now) }
        }
    }

    /// One pass of the background loop: review the riders queued, then start what is due, then
    /// (when the office's policy says so) cancel the ways back of rides there she did not show for.
    public func sweep(now: Date) async throws -> (proposed: Int, cancelled: Int) {
        let proposed = try await reviewQueued(now: now).count
        let started = try await startDue(now: now)
        return (proposed, started + (try await cancelReturnsAfterNoShows(now: now)))
    }

    /// How long a driver's no-show tap may still be undone (``RoadSettings/undoWindow``): a way
    /// back is cancelled for it only once it stands.
    static let tapStands: TimeInterval = 120

    /// With ``NoShowPolicy/noShowCancelsReturn``: cancels, by the service and with the reason, each
    /// way back still to come whose ride there is a standing no-show, and calls off its open
    /// will-call; she hears of each as of any cancellation. Returns the rides cancelled.
    public func cancelReturnsAfterNoShows(now: Date) async throws -> Int {
        try await pool.withTransaction { conn in
            guard try SuspensionStore.policy(conn).noShowCancelsReturn else { return 0 }
            try TransactionActor.set("vand (no-show policy)", conn)
            let stands = now.addingTimeInterval(-Self.tapStands)
            let noShows: SQLQuery = """
                SELECT t.ride_id FROM stop_taps t JOIN rides there ON there.id = t.ride_id
                WHERE t.action = 'no_show' AND t.undone_at IS NULL AND t.at <= \(stands) AND there.status = 'no_show'
                """
            let cancelled = try conn.query(
                """
                UPDATE rides b SET status = 'cancelled', cancelled_by = 'service', cancelled_at = \(now), updated_at = \(now),
                       reason = 'No-show on the ride there: the office cancels its way back. Book again if you still need a ride.'
                WHERE b.id IN (SELECT id FROM rides WHERE return_of IN (\(noShows)) AND status IN ('pending', 'approved')
                               AND pickup_at > \(now) FOR UPDATE SKIP LOCKED)
                RETURNING b.id
                """
            ).count
            try conn.execute(
                """
                UPDATE will_calls SET closed_at = \(now), closed_by = 'vand (no-show policy)'
                WHERE ready_at IS NULL AND closed_at IS NULL AND ride_id IN (\(noShows))
                """)
            return cancelled
        }
    }

    /// A reason or an appeal, trimmed: 1 to `limit` characters, no NUL.
    static func text(_ text: String, field: String, limit: Int) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw StandingError.text(field: field, reason: "is required") }
        guard trimmed.unicodeScalars.count <= limit, !trimmed.contains("\u{0}") else {
            throw StandingError.text(field: field, reason: "must be at most \(limit) characters, without NUL")
        }
        return trimmed
    }
}
