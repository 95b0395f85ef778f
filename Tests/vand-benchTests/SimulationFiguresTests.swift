import Foundation
import Testing
import VanDomain
import VanScheduler
@testable import vand_bench

/// The simulated day's figures come from the stops' actual times and the run's log: a day worked
/// out by hand, and the JSON's keys exactly as docs/simulation.md lists them.
@Suite("The simulated day's figures")
struct SimulationFiguresTests {
    static let nine = Date(timeIntervalSince1970: 1_795_442_400)  // 2026-11-23 09:00 New York
    func at(_ minutes: Double) -> Date { Self.nine.addingTimeInterval(minutes * 60) }

    /// Five rides between the same two places (the model's drive `drive` minutes):
    /// - A, pick up 9:00–9:15: arrived 9:05, on board 9:06, dropped off 9:20 (14 min aboard);
    /// - B, pick up 10:00–10:15: arrived 10:20 (5 min late), on board 10:21, dropped off 10:31 (10 min aboard);
    /// - C, arrive by 11:45–12:00: on board 11:30, dropped off 11:50 (on time, 20 min aboard);
    /// - D, arrive by 11:45–12:00: on board 11:40, dropped off 12:10 (late, 30 min aboard);
    /// - E, pick up 13:00–13:15: a no-show the dispatcher recorded, never reached.
    @Test func aHandWorkedDay() throws {
        let scl = try Coordinate(latitude: 41.31633, longitude: -72.92241), dav = try Coordinate(latitude: 41.30917, longitude: -72.93139)
        let estimator = TripEstimator()
        let drive = estimator.deadhead(from: scl, to: dav) / 60
        func ride(
            _ promise: RidePromise.Kind, _ window: (Double, Double), status: String = "completed", arrived: Double?, boarded: Double?,
            dropped: Double?
        )
            -> SimulationFigures.RideActuals
        {
            SimulationFigures.RideActuals(
                id: UUID(), promise: promise, window: DateInterval(start: at(window.0), end: at(window.1)), status: status, from: scl, to: dav,
                arrived: arrived.map(at), boarded: boarded.map(at), droppedAt: dropped.map(at))
        }
        let rows = [
            ride(.pickup, (0, 15), arrived: 5, boarded: 6, dropped: 20),
            ride(.pickup, (60, 75), arrived: 80, boarded: 81, dropped: 91),
            ride(.arriveBy, (165, 180), arrived: 150, boarded: 150, dropped: 170),
            ride(.arriveBy, (165, 180), arrived: 160, boarded: 160, dropped: 190),
            ride(.pickup, (240, 255), status: "no_show", arrived: nil, boarded: nil, dropped: nil),
        ]
        var log = RoadSimulation.Log()
        log.booked = 5
        log.refused = 2
        log.negotiatedMinutes = [rows[0].id: 20, rows[2].id: 75]
        log.onboardWait = 600
        log.vanHours = 10
        log.eta[rows[0].id] = at(3)
        log.eta[rows[1].id] = at(70)
        var figures = SimulationFigures()
        figures.booked = log.booked
        figures.refused = log.refused
        figures.fold(rows, log: log, estimator: estimator)

        #expect(figures.requests == 7)
        #expect(figures.denied == 3, "two refused, one booked 75 minutes from the time asked")
        #expect(figures.pickups == 2 && figures.onTime == 1 && figures.lateMinutes == [5])
        #expect(figures.neverReached == 0)
        #expect(figures.arriveBy == 2 && figures.arriveByOnTime == 1)
        #expect(figures.etaErrors.sorted() == [2, 10])
        let aboard = figures.minutesAboardOverDirect.sorted()
        let expected = [14.0, 10, 20, 30].map { $0 - drive }.sorted()
        #expect(zip(aboard, expected).allSatisfy { abs($0 - $1) < 1e-9 } && aboard.count == 4)
        #expect(abs(figures.rideOverDirect.mean - [14.0, 10, 20, 30].map { $0 / drive }.reduce(0, +) / 4) < 1e-9)
        #expect(figures.onboardWaitMinutes == 10)
        #expect(figures.ridesPerVanHour == 0.5)
    }

    /// Five riders with a will-call way back, each saying "I'm ready" first at 9:00:
    /// - A: booked at once, promised 9:05, the van arrived 9:08 (waited 8 min);
    /// - B: refused, booked at her second call for 9:25, the van arrived 9:27 (waited 27 min);
    /// - C: refused at all three calls: never got a ride;
    /// - D: refused, the road re-planned at once, booked on the try after it for 9:12, arrived 9:12;
    /// - E: booked for 9:20, never reached.
    @Test func willCallsOfAHandWorkedDay() throws {
        let place = try Coordinate(latitude: 41.31633, longitude: -72.92241)
        func back(_ window: Double, arrived: Double?) -> SimulationFigures.RideActuals {
            SimulationFigures.RideActuals(
                id: UUID(), promise: .pickup, window: DateInterval(start: at(window), end: at(window + 15)), status: "completed", from: place,
                to: place, arrived: arrived.map(at), boarded: arrived.map(at), droppedAt: nil)
        }
        let rows = [back(5, arrived: 8), back(25, arrived: 27), back(12, arrived: 12), back(20, arrived: nil)]
        typealias Call = RoadSimulation.WillCallRecord
        var log = RoadSimulation.Log()
        log.willCallRides = Set((0..<7).map { _ in UUID() })
        log.willCallReplans = 4
        log.calls = [
            UUID(): Call(firstReady: at(0), tries: 1, back: rows[0].id, promised: at(5)),
            UUID(): Call(firstReady: at(0), tries: 2, refusals: 1, back: rows[1].id, promised: at(25)),
            UUID(): Call(firstReady: at(0), tries: 3, refusals: 3),
            UUID(): Call(firstReady: at(0), tries: 1, savedByReplan: true, back: rows[2].id, promised: at(12)),
            UUID(): Call(firstReady: at(0), tries: 1, back: rows[3].id, promised: at(20)),
        ]
        var figures = SimulationFigures()
        figures.fold(rows, log: log, estimator: TripEstimator())

        #expect(figures.willCallRides == 7 && figures.willCalls == 5)
        #expect(figures.willCallRefused == 2, "B and C; D's refusal was answered by the re-plan")
        #expect(figures.willCallDenied == 1 && figures.willCallSavedByReplan == 1 && figures.willCallReplans == 4)
        #expect(figures.willCallWaits.sorted() == [8, 12, 27] && figures.willCallNotReached == 1)
        #expect(figures.willCallWaits.quantile(0.5) == 12 && figures.willCallWaits.quantile(0.95) == 27)
        #expect(figures.willCallPromisedWaits.sorted() == [5, 12, 20, 25] && figures.willCallPromisedWaits.quantile(0.95) == 25)
        let run = SimulationJSON.Run(figures)
        #expect(run.willCalls == 5 && run.willCallRefused == 2 && run.willCallDenied == 1)
        #expect(run.willCallWaitP50Min == 12 && run.willCallWaitP95Min == 27 && run.willCallPromisedWaitP95Min == 25)
    }

    /// A share of the pickup-time rides booked ahead get a will-call, drawn apart from the other fates.
    @Test func willCallFatesAreSeededAndOnlyForPickupRidesBookedAhead() throws {
        let nine = Self.nine
        let requests = (0..<400).map { index in
            CampusRequest(
                index: index, rider: index, arrival: nine, asked: nine, promise: index % 4 == 0 ? .arriveBy : .pickup,
                booking: index % 3 == 0 ? .onDemand : .dayBefore, from: 0, to: 1, wheelchair: false, companions: 0)
        }
        var none = SimulateOptions()
        none.cancels = 0.1
        var some = none
        some.willCall = 0.3
        var all = none
        all.willCall = 1
        let (f0, f3, f1) = (
            RiderFates(requests: requests, options: none), RiderFates(requests: requests, options: some),
            RiderFates(requests: requests, options: all)
        )
        #expect(f0.noShow == f3.noShow && f0.cancelLead == f3.cancelLead && f3.stay == f1.stay)
        #expect(!f0.willCall.contains(true))
        for request in requests {
            let may = RiderFates.mayCall(request) && f1.cancelLead[request.index] == nil
            #expect(f1.willCall[request.index] == may)
            #expect(!f3.willCall[request.index] || f1.willCall[request.index])
        }
        let eligible = f1.willCall.filter { $0 }.count, drawn = f3.willCall.filter { $0 }.count
        #expect(eligible > 100 && abs(Double(drawn) / Double(eligible) - 0.3) < 0.1, "\(drawn) of \(eligible)")
        #expect(f1.stay.allSatisfy { RiderFates.stays.contains($0) })
        let options = try SimulateOptions(arguments: ["--will-call", "0.3", "--will-call-replan", "off"])
        #expect(options.willCall == 0.3 && !options.willCallReplan && options.commandLine.hasSuffix("--will-call 0.3 --will-call-replan off"))
        #expect(try SimulateOptions(arguments: []).willCallReplan)
        #expect(throws: CampusBenchError.self) { try SimulateOptions(arguments: ["--will-call-replan", "maybe"]) }
        #expect(throws: CampusBenchError.self) { try SimulateOptions(arguments: ["--will-call", "1.5"]) }
    }

    @Test func theJSONHasExactlyTheKeysTheOfficeIsJudgedBy() throws {
        var figures = SimulationFigures()
        figures.booked = 3
        figures.refused = 1
        let json = SimulationJSON(
            withReplanning: .init(figures), withoutReplanning: .init(figures), hindsight: .init(booked: 4, drivingMin: 120))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try json.text().utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["with_replanning", "without_replanning", "hindsight"])
        let run = try #require(object["with_replanning"] as? [String: Any])
        #expect(
            Set(run.keys) == [
                "requests", "booked", "refused", "negotiated", "negotiated_minutes_p95", "denied", "on_time_pickups_pct",
                "arrive_by_on_time_pct", "late_pickups", "late_p95_min", "eta_error_mean_min", "eta_error_p95_min",
                "minutes_aboard_over_direct_mean", "minutes_aboard_over_direct_p95", "ride_time_ratio_mean", "onboard_wait_min",
                "driving_min", "rides_per_van_hour", "rides_moved", "late_alerts", "will_calls", "will_call_refused",
                "will_call_denied", "will_call_saved_by_replan", "will_call_wait_p50_min", "will_call_wait_p95_min",
                "will_call_promised_wait_p95_min",
            ])
        #expect(run["requests"] as? Int == 4 && run["denied"] as? Int == 1)
        #expect(Set((object["hindsight"] as? [String: Any])?.keys ?? [:].keys) == ["booked", "driving_min"])
        #expect(try SimulateOptions(arguments: ["--json"]).json)
    }
}
