import Foundation
import VanDomain
import VanPostgres
import VanScheduler
import VanServices

/// What a simulated day came to, from the stops' actual times (the `stop_actuals` view) and the run's log.
struct SimulationFigures: Sendable {
    /// Wall time per planner pass, booking and position (`--timings`; nil without).
    var timings: SimulationTimings?
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
    /// Minutes between the time asked and the time booked, per ride booked at a suggestion (negotiated).
    var negotiatedMinutes: [Double] = []
    /// Minutes aboard beyond the direct drive, per ride dropped off (drop-off arrival − boarding − the model's drive).
    var minutesAboardOverDirect: [Double] = []
    /// Minutes the vans stood at stops waiting for a window with riders aboard.
    var onboardWaitMinutes = 0.0
    /// Hours the vans were on shift.
    var vanHours = 0.0
    /// Requests and refusals by how far ahead the rider asked.
    var requestsBy: [CampusRequest.Booking: Int] = [:], refusedBy: [CampusRequest.Booking: Int] = [:]

    /// "day before 5/180 refused, same day 3/90, ride now 2/30".
    var refusalsByLead: String {
        let names: [(CampusRequest.Booking, String)] = [(.dayBefore, "day before"), (.sameDay, "same day"), (.onDemand, "ride now")]
        return names.map { booking, name in
            let asked = requestsBy[booking] ?? 0, refused = refusedBy[booking] ?? 0
            let share = asked == 0 ? "–" : String(format: "%.1f%%", Double(refused) / Double(asked) * 100)
            return "\(name) \(refused)/\(asked) (\(share))"
        }.joined(separator: ", ")
    }
    /// Rides there booked with a will-call way back (`--will-call`).
    var willCallRides = 0
    /// Will-calls: riders who said "I'm ready"; of them, refused at least once; never got a ride
    /// (refused at every try); booked on the try after a re-plan that a refusal made.
    var willCalls = 0, willCallRefused = 0, willCallDenied = 0, willCallSavedByReplan = 0
    /// Minutes from her first "I'm ready" to the way back's *arrived* tap at her pickup, per way back reached.
    var willCallWaits: [Double] = []
    /// Minutes from her first "I'm ready" to the way back's promised pickup (its window's start), per way back booked.
    var willCallPromisedWaits: [Double] = []
    /// Ways back booked that no van reached by the end of the run.
    var willCallNotReached = 0
    /// Re-plans made at once on a refused call.
    var willCallReplans = 0

    /// Pickups never reached by the end of the run.
    var neverReached = 0
    /// Taps the driver services refused (first few, for the record).
    var refusals: [String] = []

    /// The share of pickups on time, in percent.
    var onTimeShare: Double { pickups == 0 ? 0 : Double(onTime) / Double(pickups) * 100 }

    /// Requests made (booked or refused).
    var requests: Int { booked + refused }

    /// Denials as 49 CFR 37.131(b) counts them: refused, or booked more than 60 minutes from the time asked.
    var denied: Int { refused + negotiatedMinutes.filter { $0 > 60 }.count }

    /// Booked rides per van-hour on shift.
    var ridesPerVanHour: Double { vanHours > 0 ? Double(booked) / vanHours : 0 }

    /// One ride's stops as the database holds them (`stop_actuals`).
    struct RideActuals: Sendable {
        var id: UUID
        var promise: RidePromise.Kind
        var window: DateInterval
        var status: String
        var from: Coordinate
        var to: Coordinate
        /// The *arrived* tap at the pickup, the tap that ended it (on board), the *arrived* tap at the drop-off.
        var arrived: Date?, boarded: Date?, droppedAt: Date?
    }

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
                WHERE (r.pickup_at >= \(day.start) AND r.pickup_at < \(day.end) OR r.return_of IS NOT NULL)
                  AND r.status IN ('approved', 'pending', 'completed', 'no_show')
                """ as SQLQuery
            ) { row in
                RideActuals(
                    id: try row.decode(UUID.self, "id"), promise: RidePromise.Kind(rawValue: try row.decode(String.self, "promise")) ?? .pickup,
                    window: DateInterval(start: try row.decode(Date.self, "window_start"), end: try row.decode(Date.self, "window_end")),
                    status: try row.decode(String.self, "status"),
                    from: try Coordinate(latitude: try row.decode(Double.self, "pickup_lat"), longitude: try row.decode(Double.self, "pickup_lon")),
                    to: try Coordinate(latitude: try row.decode(Double.self, "dropoff_lat"), longitude: try row.decode(Double.self, "dropoff_lon")),
                    arrived: try row.decode(Date?.self, "pickup_arrived_at"), boarded: try row.decode(Date?.self, "pickup_departed_at"),
                    droppedAt: try row.decode(Date?.self, "dropoff_arrived_at"))
            }
        }
        figures.fold(rows, log: log, estimator: estimator)
        return figures
    }

    /// Folds the rides' actual stop times and what the run logged into the figures.
    mutating func fold(_ rows: [RideActuals], log: RoadSimulation.Log, estimator: TripEstimator) {
        negotiatedMinutes = Array(log.negotiatedMinutes.values)
        onboardWaitMinutes = log.onboardWait / 60
        vanHours = log.vanHours
        requestsBy = log.requestsBy
        refusedBy = log.refusedBy
        foldWillCalls(rows, log: log)
        for row in rows {
            if row.promise == .pickup {
                if let arrived = row.arrived {
                    pickups += 1
                    if arrived <= row.window.end {
                        onTime += 1
                    } else {
                        lateMinutes.append(arrived.timeIntervalSince(row.window.end) / 60)
                    }
                    if let eta = log.eta[row.id] {
                        etaErrors.append(abs(eta.timeIntervalSince(arrived)) / 60)
                        if log.etaOffRoad.contains(row.id) { etaOffRoad += 1 }
                        if log.etaUnlisted.contains(row.id) { etaUnlisted += 1 }
                        if log.etaRetaken.contains(row.id) { etaRetaken += 1 }
                    }
                } else {
                    // A dispatcher's no-show after a late van has no arrival tap: late by its rule.
                    neverReached += row.status == "no_show" ? 0 : 1
                }
            } else if let dropped = row.droppedAt {
                arriveBy += 1
                if dropped <= row.window.end { arriveByOnTime += 1 }
            }
            if let boarded = row.boarded, let dropped = row.droppedAt {
                let drive = estimator.deadhead(from: row.from, to: row.to)
                let aboard = dropped.timeIntervalSince(boarded)
                rideOverDirect.append(aboard / max(1, drive))
                minutesAboardOverDirect.append((aboard - drive) / 60)
            }
        }
    }
}

extension SimulationFigures {
    /// Folds the will-calls the run logged, with their ways back's *arrived* taps from `rows`.
    mutating func foldWillCalls(_ rows: [RideActuals], log: RoadSimulation.Log) {
        let arrived = Dictionary(rows.map { ($0.id, $0.arrived) }, uniquingKeysWith: { a, _ in a })
        willCallRides = log.willCallRides.count
        willCallReplans = log.willCallReplans
        for call in log.calls.values {
            willCalls += 1
            if call.refusals > 0 { willCallRefused += 1 }
            if call.savedByReplan { willCallSavedByReplan += 1 }
            guard let back = call.back else {
                willCallDenied += 1
                continue
            }
            if let promised = call.promised { willCallPromisedWaits.append(promised.timeIntervalSince(call.firstReady) / 60) }
            if let tap = arrived[back] ?? nil {
                willCallWaits.append(tap.timeIntervalSince(call.firstReady) / 60)
            } else {
                willCallNotReached += 1
            }
        }
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
