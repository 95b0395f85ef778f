import Foundation
import Prometheus
import Synchronization

/// Every metric `vand` exposes at `/metrics`, in Prometheus text format. One
/// registry per process, passed where it is needed (no global bootstrap, so tests
/// each get their own).
public final class VandMetrics: Sendable {
    /// The registry the metrics live in.
    public let registry: PrometheusCollectorRegistry
    private let readCacheHits: Counter
    private let readCacheMisses: Counter
    /// Each (method, route, status)'s counter and histogram, made once: the registry's lookup
    /// (label validation and keys) on every request was 4.6 % of `vand`'s CPU serving `/healthz`.
    private let requestSeries = Mutex<[RequestSeries: (Counter, DurationHistogram)]>([:])

    /// The labels of one HTTP request series.
    private struct RequestSeries: Hashable {
        let method: String
        let route: String
        let status: Int
    }
    private static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(20),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    /// An empty set of metrics.
    public init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        let answers = MetricNameDescriptor(
            metricName: "vand_ride_list_answers", unitName: "total", helpText: "Upcoming-ride pages answered from memory or from the database")
        readCacheHits = registry.makeCounter(descriptor: answers, labels: [("from", "memory")])
        readCacheMisses = registry.makeCounter(descriptor: answers, labels: [("from", "database")])
    }

    /// An upcoming-ride page was answered from memory (`hit`) or had to be read.
    public func readCache(hit: Bool) {
        (hit ? readCacheHits : readCacheMisses).increment()
    }

    /// One HTTP request: `route` is the matched pattern (`/v1/rides/{id}`), never the raw path.
    public func request(method: String, route: String, status: Int, duration: Duration) {
        let key = RequestSeries(method: method, route: route, status: status)
        let registry = registry
        let (counter, histogram) = requestSeries.withLock { series in
            if let made = series[key] { return made }
            let labels = [("method", method), ("route", route), ("status", String(status))]
            let made = (
                registry.makeCounter(
                    descriptor: .init(metricName: "vand_http_requests", unitName: "total", helpText: "HTTP requests by route and status"),
                    labels: labels),
                registry.makeDurationHistogram(
                    descriptor: .init(
                        metricName: "vand_http_request_duration", unitName: "seconds", helpText: "HTTP request latency by route and status"),
                    labels: labels, buckets: Self.latencyBuckets)
            )
            series[key] = made
            return made
        }
        counter.increment()
        histogram.record(duration)
    }

    /// A ride was booked.
    public func bookingMade() {
        registry.makeCounter(descriptor: .init(metricName: "vand_bookings", unitName: "total", helpText: "Rides booked"), labels: []).increment()
    }

    /// A booking was refused, with the scheduler's reason.
    public func bookingRefused(reason: String) {
        registry.makeCounter(
            descriptor: .init(metricName: "vand_bookings_refused", unitName: "total", helpText: "Bookings refused by reason"),
            labels: [("reason", reason)]
        ).increment()
    }

    /// A background route improvement ran: `result` is improved, unchanged, retry (a route changed
    /// while planning) or failed; `ridesChanged` rides got another van or times, saving `drivingSaved` seconds of driving.
    public func improvementRun(result: String, ridesChanged: Int, drivingSaved: TimeInterval) {
        registry.makeCounter(
            descriptor: .init(metricName: "vand_improvement_runs", unitName: "total", helpText: "Background route improvements by result"),
            labels: [("result", result)]
        ).increment()
        registry.makeCounter(
            descriptor: .init(
                metricName: "vand_improvement_rides_changed", unitName: "total",
                helpText: "Rides given another van or times by background improvement"),
            labels: []
        ).increment(by: Int64(ridesChanged))
        registry.makeCounter(
            descriptor: .init(
                metricName: "vand_improvement_driving_saved_seconds", unitName: "total", helpText: "Driving saved by background improvement"),
            labels: []
        ).increment(by: max(0, drivingSaved))
    }

    /// A delivery attempt to `sink` failed.
    public func deliveryFailed(sink: String) {
        registry.makeCounter(
            descriptor: .init(metricName: "vand_delivery_failures", unitName: "total", helpText: "Failed delivery attempts by sink"),
            labels: [("sink", sink)]
        ).increment()
    }

    /// Sets the gauges read at scrape time: connections lent out, events waiting for delivery,
    /// and the worst reminder lag of the last hour (firing time minus due time, where the due
    /// time is the later of pickup − lead and the approval).
    public func observe(poolInUse: Int, poolOpen: Int, eventsWaiting: Int?, reminderLagSeconds: Double? = nil) {
        if let reminderLagSeconds {
            registry.makeGauge(
                descriptor: .init(metricName: "vand_reminder_lag_max_1h", unitName: "seconds", helpText: "Worst reminder lag in the last hour"),
                labels: []
            )
            .set(reminderLagSeconds)
        }
        registry.makeGauge(
            descriptor: .init(metricName: "vand_db_pool_in_use", unitName: "connections", helpText: "Database connections lent out"), labels: []
        ).set(Double(poolInUse))
        registry.makeGauge(
            descriptor: .init(metricName: "vand_db_pool_open", unitName: "connections", helpText: "Database connections open"), labels: []
        ).set(Double(poolOpen))
        if let eventsWaiting {
            registry.makeGauge(
                descriptor: .init(metricName: "vand_events_waiting", unitName: "", helpText: "Deliveries not yet delivered or parked"), labels: []
            ).set(Double(eventsWaiting))
        }
    }

    /// The text exposition.
    public func render() -> String { registry.emitToString() }
}
