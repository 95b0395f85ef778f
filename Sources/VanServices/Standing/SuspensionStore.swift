import Foundation
import VanDomain
import VanPostgres

/// The rows of the no-show policy (sql/0038): the policy's setting, a rider's trips as the
/// record reads them, and the suspension cases. Each function runs on the caller's connection,
/// inside the caller's transaction.
enum SuspensionStore {
    /// The office's policy (the defaults until `vanadmin policy set`).
    static func policy(_ conn: PGConnection) throws -> NoShowPolicy {
        try conn.query("SELECT value FROM settings WHERE key = 'no_show_policy'").first?
            .decode(PGJSON<NoShowPolicy>.self, "value").value ?? NoShowPolicy()
    }

    /// Writes the policy.
    static func setPolicy(_ policy: NoShowPolicy, actor: String, _ conn: PGConnection) throws {
        try conn.execute(
            """
            INSERT INTO settings (key, value, updated_by) VALUES ('no_show_policy', \(PGJSON(policy)), \(actor))
            ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = now()
            """)
    }

    /// `netID`'s rides picked up in `span`, as the record reads them: the standing taps at the
    /// pickup, the ETA she was told, the office's excusal, and the notice that named each.
    static func trips(_ netID: String, in span: DateInterval, _ conn: PGConnection) throws -> [NoShowRecord.Trip] {
        try conn.query(
            """
            SELECT r.id, r.ref, r.pickup_at, r.status, (r.cancelled_late AND r.cancelled_by = 'rider') AS cancelled_late,
                   r.promise, r.window_start, r.window_end, x.reason AS excused_for,
                   (SELECT a.eta FROM ride_alerts a WHERE a.ride_id = r.id AND a.kind = 'late' AND a.stop = 'pickup') AS told_eta,
                   (SELECT max(t.at) FROM stop_taps t WHERE t.ride_id = r.id AND t.stop = 'pickup' AND t.action = 'arrived'
                       AND t.undone_at IS NULL) AS arrived_at,
                   (SELECT max(t.at) FROM stop_taps t WHERE t.ride_id = r.id AND t.stop = 'pickup' AND t.action = 'no_show'
                       AND t.undone_at IS NULL) AS no_show_at,
                   (SELECT min(s.id) FROM suspensions s WHERE s.net_id = r.net_id AND r.id = ANY (s.trips)) AS named_in
            FROM rides r LEFT JOIN noshow_excusals x ON x.ride_id = r.id
            WHERE r.net_id = \(netID) AND r.pickup_at >= \(span.start) AND r.pickup_at <= \(span.end)
            ORDER BY r.pickup_at, r.id
            """
        ).map { row in
            let status = RideStatus(rawValue: try row.decode(String.self, "status")) ?? .pending
            let kind = RidePromise.Kind(rawValue: try row.decode(String.self, "promise")) ?? .pickup
            let pickupAt = try row.decode(Date.self, "pickup_at")
            let promise = RidePromise(
                kind: kind, window: DateInterval(start: try row.decode(Date.self, "window_start"), end: try row.decode(Date.self, "window_end")))
            return NoShowRecord.Trip(
                rideID: try row.decode(UUID.self, "id"), ref: try row.decode(String.self, "ref"), pickupAt: pickupAt, status: status,
                cancelledLate: try row.decode(Bool.self, "cancelled_late"),
                pickupWindow: NoShowRule.pickupWindow(promise: promise, plannedPickup: pickupAt),
                toldETA: try row.decode(Date?.self, "told_eta"), arrivedAt: try row.decode(Date?.self, "arrived_at"),
                noShowAt: try row.decode(Date?.self, "no_show_at"), excusedFor: try row.decode(String?.self, "excused_for"),
                namedInNotice: try row.decode(Int64?.self, "named_in"))
        }
    }

    /// The columns ``cases(_:_:)`` reads, from `suspensions s`.
    private static let columns: SQLQuery = """
        s.id, s.net_id, s.status, s.step, s.period_days, s.noticed_at, s.starts_on, s.ends_on, s.appeal_by,
        s.appeal_text, s.appeal_filed_at, s.appeal_filed_by, s.decided_at, s.decided_by, s.decision_reason, s.started_at
        """

    /// The cases matching `condition` (on `suspensions s`), newest first, with their trips.
    static func cases(where condition: SQLQuery, _ conn: PGConnection, lock: Bool = false) throws -> [Suspension] {
        let locking: SQLQuery = lock ? "FOR UPDATE OF s" : ""
        let rows = try conn.query("SELECT \(columns) FROM suspensions s WHERE \(condition) ORDER BY s.id DESC \(locking)")
        guard rows.count > 0 else { return [] }
        var cases: [Suspension] = try rows.map { row in
            var appeal: Suspension.Appeal?
            if let text = try row.decode(String?.self, "appeal_text") {
                appeal = Suspension.Appeal(
                    text: text, filedAt: try row.decode(Date.self, "appeal_filed_at"), filedBy: try row.decode(String.self, "appeal_filed_by"))
            }
            let status = Suspension.Status(rawValue: try row.decode(String.self, "status")) ?? .proposed
            var decision: Suspension.Decision?
            if let decidedAt = try row.decode(Date?.self, "decided_at") {
                decision = Suspension.Decision(
                    upheld: status == .upheld, reason: try row.decode(String.self, "decision_reason"),
                    decidedBy: try row.decode(String.self, "decided_by"), decidedAt: decidedAt)
            }
            return Suspension(
                id: try row.decode(Int64.self, "id"), netID: try row.decode(String.self, "net_id"), status: status, trips: [],
                step: try row.decode(Int.self, "step"), periodDays: try row.decode(Int.self, "period_days"),
                noticedAt: try row.decode(Date.self, "noticed_at"), startsOn: try row.decode(LocalDate.self, "starts_on"),
                endsOn: try row.decode(LocalDate.self, "ends_on"), appealBy: try row.decode(LocalDate.self, "appeal_by"), appeal: appeal,
                decision: decision, startedAt: try row.decode(Date?.self, "started_at"))
        }
        let ids = "{" + cases.map { String($0.id) }.joined(separator: ",") + "}"
        let trips = try conn.query(
            """
            SELECT s.id AS suspension_id, r.id, r.ref, r.pickup_at, r.status
            FROM suspensions s CROSS JOIN LATERAL unnest(s.trips) WITH ORDINALITY AS t(ride_id, n) JOIN rides r ON r.id = t.ride_id
            WHERE s.id = ANY (\(ids)::bigint[]) ORDER BY s.id, t.n
            """)
        var byCase: [Int64: [Suspension.Trip]] = [:]
        for row in trips {
            let missed: NoShowRecord.Missed = try row.decode(String.self, "status") == "no_show" ? .noShow : .lateCancel
            byCase[try row.decode(Int64.self, "suspension_id"), default: []].append(
                Suspension.Trip(
                    rideID: try row.decode(UUID.self, "id"), ref: try row.decode(String.self, "ref"),
                    pickupAt: try row.decode(Date.self, "pickup_at"), missed: missed))
        }
        for index in cases.indices { cases[index].trips = byCase[cases[index].id] ?? [] }
        return cases
    }

    /// Her cases that keep her from riding on some day from `first` to `last` (proposed or upheld).
    static func blocking(_ netID: String, from first: LocalDate, to last: LocalDate, _ conn: PGConnection) throws -> [Suspension] {
        try cases(
            where: "s.net_id = \(netID) AND s.status IN ('proposed', 'upheld') AND s.starts_on <= \(last) AND s.ends_on > \(first)", conn)
    }

    /// Writes a case event on its anchor ride (the webhook and the log hear of it, as of every
    /// ride event), with the letter she reads; `toRider` adds her inbox delivery.
    static func writeEvent(_ kind: RideEventKind, _ suspension: Suspension, letter: String, toRider: Bool, _ conn: PGConnection) throws {
        let standing = PGJSON(
            CaseEvent(
                suspension: suspension.id, status: suspension.status.rawValue, message: letter, startsOn: suspension.startsOn.rawValue,
                endsOn: suspension.endsOn.rawValue, appealBy: suspension.appealBy.rawValue, trips: suspension.trips.map(\.ref)))
        guard
            let eventID = try conn.query(
                """
                SELECT vand_write_ride_event(r, \(kind.rawValue), NULL, jsonb_build_object('standing', \(standing)::jsonb)) AS event_id
                FROM rides r JOIN suspensions s ON s.anchor_ride_id = r.id WHERE s.id = \(suspension.id)
                """
            ).first?.decode(Int64.self, "event_id")
        else { return }
        if toRider { try conn.execute("INSERT INTO deliveries (event_id, sink) VALUES (\(eventID), 'rider')") }
    }

    /// The `standing` object of a case event's payload (docs/events.md).
    struct CaseEvent: Codable, Sendable {
        var suspension: Int64
        var status: String
        var message: String
        var startsOn: String
        var endsOn: String
        var appealBy: String
        var trips: [String]

        enum CodingKeys: String, CodingKey {
            case suspension, status, message, trips
            case startsOn = "starts_on"
            case endsOn = "ends_on"
            case appealBy = "appeal_by"
        }
    }
}
