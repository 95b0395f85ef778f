import Foundation
import VanDomain
import VanPostgres
import VanScheduler
import VanServices

/// What a simulated day came to, from the stops' actual times (the `stop_actuals` view) and the run's log.
struct SimulationFigures: Sendable {
    /// Pickups promised a window that the van reached.
    var pickups = 0
    /// Of those, reached inside the window (a van arriving early waits for it to open).
    var onTime = 0
    /// Minutes late of each late pickup.
    var lateMinutes: [Double] = []
    /// Arrive-by rides dropped off, and of those by the promised time.
    var arriveBy = 0, arriveByOnTime = 0
    /// Ride time over the direct drive, per ride dropped off.
    var rideOverDirect: [Double] = []
    /// Minutes the vans drove.
    var drivingMinutes = 0.0
    /// No-shows the drivers tapped, and those the dispatcher recorded (the van came too late for the driver's rule).
    var noShowTaps = 0, dispatcherNoShows = 0
    /// Rides moved to another van by re-planning.
    var moved = 0
    /// Rides projected late at some point (the dispatcher's `late` alert).
    var alerts = 0
    /// |ETA − *arrived* tap| in minutes, the rider's ETA (when the van is at her pickup ready for
    /// her) taken 15 minutes before the pickup window.
    var etaErrors: [Double] = []
    /// Of those, ETAs from the benchmark's projection because ``ETAService`` had none: no van on
    /// the road for the ride, or the van's stops without the pickup.
    var etaOffRoad = 0, etaUnlisted = 0
    /// Of those, ETAs taken again when re-planning moved the ride to another van (the fresh one the move pushes).
    var etaRetaken = 0
    /// Rides booked, refused, cancelled late.
    var booked = 0, refused = 0, cancelled = 0
    /// Pickups never reached by the end of the run.
    var neverReached = 0
    /// Taps the driver services refused (first few, for the record).
    var refusals: [String] = []

    /// The share of pickups on time, in percent.
    var onTimeShare: Double { pickups == 0 ? 0 : Double(onTime) / Double(pickups) * 100 }

    /// Reads the day's stops back from `database` and folds in `log`.
    static func measure(
        _ database: Database, day: DateInterval, log: RoadSimulation.Log, estimator: TripEstimator,
        drivingSeconds: TimeInterval
    ) async throws -> SimulationFigures {
        var figures = SimulationFigures()
        figures.drivingMinutes = drivingSeconds / 60
        figures.noShowTaps = log.noShowTaps
        figures.dispatcherNoShows = log.dispatcherNoShows
        figures.moved = log.moved.count
        figures.alerts = log.alerted.count
        figures.booked = log.booked
        figures.refused = log.refused
        figures.cancelled = log.cancelled
        figures.refusals = Array(log.refusals.prefix(5))
        let rows = try await database.pool.withConnection { conn in
            try conn.query(
                """
                SELECT r.id, r.promise, r.window_start, r.window_end, r.status, r.pickup_lat, r.pickup_lon, r.dropoff_lat, r.dropoff_lon,
                       p.arrived_at AS pickup_arrived_at, p.departed_at AS pickup_departed_at, d.arrived_at AS dropoff_arrived_at
                FROM rides r
                LEFT JOIN stop_actuals p ON p.ride_id = r.id AND p.stop = 'pickup'
                LEFT JOIN stop_actuals d ON d.ride_id = r.id AND d.stop = 'dropoff'
                WHERE r.pickup_at >= \(day.start) AND r.pickup_at < \(day.end) AND r.status IN ('approved', 'pending', 'completed', 'no_show')
                """ as SQLQuery
            ) { row in
                (
                    id: try row.decode(UUID.self, "id"), promise: try row.decode(String.self, "promise"),
                    start: try row.decode(Date.self, "window_start"),
                    end: try row.decode(Date.self, "window_end"), status: try row.decode(String.self, "status"),
                    from: try Coordinate(latitude: try row.decode(Double.self, "pickup_lat"), longitude: try row.decode(Double.self, "pickup_lon")),
                    to: try Coordinate(latitude: try row.decode(Double.self, "dropoff_lat"), longitude: try row.decode(Double.self, "dropoff_lon")),
                    arrived: try row.decode(Date?.self, "pickup_arrived_at"), boarded: try row.decode(Date?.self, "pickup_departed_at"),
                    droppedAt: try row.decode(Date?.self, "dropoff_arrived_at")
                )
            }
        }
        for row in rows {
            if row.promise == "pickup" {
                guard let arrived = row.arrived else {
                    // A dispatcher's no-show after a late van has no arrival tap: late by its rule.
                    figures.neverReached += row.status == "no_show" ? 0 : 1
                    continue
                }
                figures.pickups += 1
                if arrived <= row.end {
                    figures.onTime += 1
                } else {
                    figures.lateMinutes.append(arrived.timeIntervalSince(row.end) / 60)
                }
                if let eta = log.eta[row.id] {
                    figures.etaErrors.append(abs(eta.timeIntervalSince(arrived)) / 60)
                    if log.etaOffRoad.contains(row.id) { figures.etaOffRoad += 1 }
                    if log.etaUnlisted.contains(row.id) { figures.etaUnlisted += 1 }
                    if log.etaRetaken.contains(row.id) { figures.etaRetaken += 1 }
                }
            } else if let dropped = row.droppedAt {
                figures.arriveBy += 1
                if dropped <= row.end { figures.arriveByOnTime += 1 }
            }
            if let boarded = row.boarded, let dropped = row.droppedAt {
                let direct = max(1, estimator.deadhead(from: row.from, to: row.to))
                figures.rideOverDirect.append(dropped.timeIntervalSince(boarded) / direct)
            }
        }
        return figures
    }
}

extension Array where Element == Double {
    /// The mean (0 when empty).
    var mean: Double { isEmpty ? 0 : reduce(0, +) / Double(count) }

    /// The `p` quantile by nearest rank (0 when empty).
    func quantile(_ p: Double) -> Double {
        guard !isEmpty else { return 0 }
        let sorted = self.sorted()
        return sorted[Swift.min(sorted.count - 1, Swift.max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
    }
}
