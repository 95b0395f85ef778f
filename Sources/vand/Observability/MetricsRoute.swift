import Hummingbird
import VanScheduler

/// `GET /metrics`: Prometheus text format. Pool use and the delivery backlog are read
/// at scrape time; the backlog is left out if the database does not answer.
struct MetricsRoute: Sendable {
    let metrics: VandMetrics
    let pool: PostgresPool

    func register(on router: Router<AppRequestContext>) {
        router.get("metrics") { _, _ -> Response in
            let waiting = try? await pool.withConnection { conn in
                try conn.query("SELECT count(*) FROM deliveries WHERE delivered_at IS NULL AND parked_at IS NULL").first!.decode(Int.self, at: 0)
            }
            metrics.observe(poolInUse: pool.inUse, poolOpen: pool.openCount, eventsWaiting: waiting)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(string: metrics.render())))
        }
    }
}
