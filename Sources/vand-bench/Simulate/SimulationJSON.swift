import Foundation

/// `vand-bench simulate --json`: one object, `{"with_replanning": {…}, "without_replanning": {…},
/// "hindsight": {…}}`, each run's figures under the keys docs/simulation.md lists.
struct SimulationJSON: Encodable {
    /// One run's figures.
    struct Run: Encodable {
        let requests, booked, refused, negotiated: Int
        let negotiatedMinutesP95: Double
        let denied: Int
        let onTimePickupsPct, arriveByOnTimePct: Double
        let latePickups: Int
        let lateP95Min, etaErrorMeanMin, etaErrorP95Min: Double
        let minutesAboardOverDirectMean, minutesAboardOverDirectP95, rideTimeRatioMean: Double
        let onboardWaitMin, drivingMin, ridesPerVanHour: Double
        let ridesMoved, lateAlerts: Int
        let willCalls, willCallRefused, willCallDenied, willCallSavedByReplan: Int
        let willCallWaitP50Min, willCallWaitP95Min, willCallPromisedWaitP95Min: Double
        /// With `--timings` only.
        let timings: SimulationTimings?

        enum CodingKeys: String, CodingKey {
            case requests, booked, refused, negotiated, denied
            case negotiatedMinutesP95 = "negotiated_minutes_p95"
            case onTimePickupsPct = "on_time_pickups_pct"
            case arriveByOnTimePct = "arrive_by_on_time_pct"
            case latePickups = "late_pickups"
            case lateP95Min = "late_p95_min"
            case etaErrorMeanMin = "eta_error_mean_min"
            case etaErrorP95Min = "eta_error_p95_min"
            case minutesAboardOverDirectMean = "minutes_aboard_over_direct_mean"
            case minutesAboardOverDirectP95 = "minutes_aboard_over_direct_p95"
            case rideTimeRatioMean = "ride_time_ratio_mean"
            case onboardWaitMin = "onboard_wait_min"
            case drivingMin = "driving_min"
            case ridesPerVanHour = "rides_per_van_hour"
            case ridesMoved = "rides_moved"
            case lateAlerts = "late_alerts"
            case willCalls = "will_calls"
            case willCallRefused = "will_call_refused"
            case willCallDenied = "will_call_denied"
            case willCallSavedByReplan = "will_call_saved_by_replan"
            case willCallWaitP50Min = "will_call_wait_p50_min"
            case willCallWaitP95Min = "will_call_wait_p95_min"
            case willCallPromisedWaitP95Min = "will_call_promised_wait_p95_min"
            case timings
        }

        /// The figures, rounded to a tenth (a hundredth for ratios).
        init(_ f: SimulationFigures) {
            func tenth(_ x: Double) -> Double { (x * 10).rounded() / 10 }
            func hundredth(_ x: Double) -> Double { (x * 100).rounded() / 100 }
            requests = f.requests
            booked = f.booked
            refused = f.refused
            negotiated = f.negotiatedMinutes.count
            negotiatedMinutesP95 = tenth(f.negotiatedMinutes.quantile(0.95))
            denied = f.denied
            onTimePickupsPct = tenth(f.onTimeShare)
            arriveByOnTimePct = tenth(f.arriveBy == 0 ? 0 : Double(f.arriveByOnTime) / Double(f.arriveBy) * 100)
            latePickups = f.lateMinutes.count
            lateP95Min = tenth(f.lateMinutes.quantile(0.95))
            etaErrorMeanMin = tenth(f.etaErrors.mean)
            etaErrorP95Min = tenth(f.etaErrors.quantile(0.95))
            minutesAboardOverDirectMean = tenth(f.minutesAboardOverDirect.mean)
            minutesAboardOverDirectP95 = tenth(f.minutesAboardOverDirect.quantile(0.95))
            rideTimeRatioMean = hundredth(f.rideOverDirect.mean)
            onboardWaitMin = tenth(f.onboardWaitMinutes)
            drivingMin = tenth(f.drivingMinutes)
            ridesPerVanHour = hundredth(f.ridesPerVanHour)
            ridesMoved = f.moved
            lateAlerts = f.alerts
            willCalls = f.willCalls
            willCallRefused = f.willCallRefused
            willCallDenied = f.willCallDenied
            willCallSavedByReplan = f.willCallSavedByReplan
            willCallWaitP50Min = tenth(f.willCallWaits.quantile(0.5))
            willCallWaitP95Min = tenth(f.willCallWaits.quantile(0.95))
            willCallPromisedWaitP95Min = tenth(f.willCallPromisedWaits.quantile(0.95))
            timings = f.timings
        }
    }

    /// The same requests, all known at dawn, booked by the same engine with no noise.
    struct Hindsight: Encodable {
        let booked: Int
        let drivingMin: Double

        enum CodingKeys: String, CodingKey {
            case booked
            case drivingMin = "driving_min"
        }
    }

    let withReplanning: Run
    let withoutReplanning: Run
    let hindsight: Hindsight

    enum CodingKeys: String, CodingKey {
        case hindsight
        case withReplanning = "with_replanning"
        case withoutReplanning = "without_replanning"
    }

    /// The object as one line of JSON, keys sorted.
    func text() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
