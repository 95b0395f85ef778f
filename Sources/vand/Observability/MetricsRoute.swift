import Foundation
import Hummingbird
import VanServices
import VanPostgres

/// `GET /metrics`: Prometheus text format. Pool use and the delivery backlog are read
/// at scrape time; the backlog is left out if the database does not answer.
struct MetricsRoute: Sendable {
    let metrics: VandMetrics
    let pool: PGPool
    /// The reminder lead, to compute when each reminder was due.
    let reminderLead: TimeInterval

    func register(on router: Router<AppRequestContext>) {
        router.get("metrics") { _, _ -> Response in
            let lead = reminderLead
            let backlog = try? await pool.withConnection { conn -> (Int, Double) in
                let waiting = try conn.query("SELECT count(*) FROM deliveries WHERE delivered_at IS NULL AND parked_at IS NULL").first!.decode(Int.self, at: 0)
                let lag = try conn.query("""
                    SELECT coalesce(max(extract(epoch FROM reminded_at - greatest(pickup_at - make_interval(secs => \(lead)), coalesce(decided_at, created_at)))), 0)::float8
                    FROM rides WHERE reminded_at > now() - interval '1 hour'
                    """).first!.decode(Double.self, at: 0)
                return (waiting, max(0, lag))
            }
            metrics.observe(poolInUse: pool.inUse, poolOpen: pool.openCount, eventsWaiting: backlog?.0, reminderLagSeconds: backlog?.1)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(string: metrics.render())))
        }
    }
}
