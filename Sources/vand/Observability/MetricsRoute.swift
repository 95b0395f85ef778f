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
            let health = try? await EventHealth.read(pool, reminderLead: reminderLead)
            metrics.observe(
                poolInUse: pool.inUse, poolOpen: pool.openCount, eventsWaiting: health?.deliveriesWaiting,
                reminderLagSeconds: health?.worstReminderLagSeconds)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"], body: .init(byteBuffer: ByteBuffer(string: metrics.render())))
        }
    }
}
