import Foundation
import VanServices

/// Command line of `vand-bench simulate`.
struct SimulateOptions: Sendable {
    static let usage =
        "usage: vand-bench simulate [--seed N] [--rides N] [--vans N] [--noise CV] [--dwell-noise CV] [--no-shows RATE] [--cancels RATE] [--replan-every SECONDS] [--replan-frozen MINUTES] [--eta-trace] [--will-call SHARE] [--will-call-replan on|off] [--unhurried MINUTES|off] [--will-call-hold MINUTES|off] [--bias B] [--learn-speeds on|off] [--timings] [--json]"

    /// The day's seed (requests, riders not showing, cancellations, travel times).
    var seed: UInt64 = 1
    /// Requests in the day.
    var rides = 300
    /// Vans, cycling through the demo fleet.
    var vans = 8
    /// Coefficient of variation of each leg's driving time around the model's (log-normal).
    var noise = 0.2
    /// Coefficient of variation of each boarding and alighting time around the model's (log-normal);
    /// nil: the same as `noise`.
    var dwellNoise: Double?
    /// Share of riders who do not show.
    var noShows = 0.03
    /// Share of booked rides cancelled late (within the hour before pickup).
    var cancels = 0.03
    /// How often the planner re-plans from the road, simulated seconds (taps make it due too).
    var replanEvery: TimeInterval = 120
    /// The re-planner's frozen horizon, seconds (``RoadReplanner/defaultFrozen``; 0: off).
    var replanFrozen: TimeInterval = RoadReplanner.defaultFrozen
    /// Share of the scheduled pickup-time requests (not arrive-by, not a ride now, not cancelled
    /// late) booked with a will-call way back ("I'll call when I'm ready").
    var willCall = 0.0
    /// Whether, in the run with re-planning, a refused "I'm ready" has the road re-planned at once
    /// and is tried once more before it counts as refused.
    var willCallReplan = true
    /// The scheduler's unhurried margin, minutes (nil: off, every stop as early as it can be):
    /// ``SchedulerSettings/unhurriedMarginMinutes``, its default unless given.
    var unhurried: Int? = SchedulerSettings().unhurriedMarginMinutes
    /// Room kept for open will-calls from this many minutes after the ride there's drop-off
    /// (nil: none): ``SchedulerSettings/willCallHoldMinutes``, its default unless given.
    var willCallHold: Int? = SchedulerSettings().willCallHoldMinutes
    /// Whether to print, per run, each pickup whose ETA at −15 minutes was off by more than
    /// 3 minutes, with what happened on her van between the ETA and the van's arrival.
    var etaTrace = false
    /// How much slower than the model the road is: every real drive is the model's × (1 + bias),
    /// drawn with the same noise around it (0: the model is right on average).
    var bias = 0.0
    /// Whether the planner learns the road's speed from the taps (``RoadSpeeds``; on, as vand does).
    var learnSpeeds = true
    /// Whether to time each planner pass, booking and position-to-ETA update (wall time), and
    /// print them per run (`timings` under `--json`).
    var timings = false
    /// Whether to print one JSON object (``SimulationJSON``) instead of the text.
    var json = false

    /// The coefficient of variation the dwell times are drawn with: `--dwell-noise`, else `--noise`.
    var dwellCV: Double { dwellNoise ?? noise }

    /// The defaults.
    init() {}

    /// Parses the arguments after `simulate`; throws a one-line message on misuse.
    init(arguments: [String]) throws(CampusBenchError) {
        var rest = BenchArguments(arguments)
        while let argument = rest.next() {
            switch argument {
            case "--seed": seed = try rest.seed()
            case "--rides": rides = try rest.count(argument)
            case "--vans": vans = try rest.count(argument)
            case "--noise": noise = try rest.share(argument, upTo: 2)
            case "--dwell-noise": dwellNoise = try rest.share(argument, upTo: 2)
            case "--no-shows": noShows = try rest.share(argument, upTo: 1)
            case "--cancels": cancels = try rest.share(argument, upTo: 1)
            case "--replan-every": replanEvery = TimeInterval(try rest.count(argument))
            case "--replan-frozen": replanFrozen = TimeInterval(try rest.count(argument, from: 0) * 60)
            case "--will-call": willCall = try rest.share(argument, upTo: 1)
            case "--will-call-replan": willCallReplan = try rest.onOff(argument)
            case "--unhurried": unhurried = try rest.minutesOrOff(argument, 0...30)
            case "--will-call-hold": willCallHold = try rest.minutesOrOff(argument, 0...480)
            case "--eta-trace": etaTrace = true
            case "--timings": timings = true
            case "--bias": bias = try rest.share(argument, upTo: 2)
            case "--learn-speeds": learnSpeeds = try rest.onOff(argument)
            case "--json": json = true
            default: throw CampusBenchError("unknown argument \(argument); \(Self.usage)")
            }
        }
    }

    /// The command line that reproduces this run.
    var commandLine: String {
        "vand-bench simulate --seed \(seed) --rides \(rides) --vans \(vans) --noise \(noise) --dwell-noise \(dwellCV) --no-shows \(noShows) --cancels \(cancels)"
            + " --replan-every \(Int(replanEvery)) --replan-frozen \(Int(replanFrozen / 60))"
            + (willCall > 0 ? " --will-call \(willCall) --will-call-replan \(willCallReplan ? "on" : "off")" : "")
            + (unhurried == SchedulerSettings().unhurriedMarginMinutes ? "" : " --unhurried \(unhurried.map(String.init) ?? "off")")
            + (willCallHold == SchedulerSettings().willCallHoldMinutes ? "" : " --will-call-hold \(willCallHold.map(String.init) ?? "off")")
            + (bias == 0 ? "" : " --bias \(bias)") + (learnSpeeds ? "" : " --learn-speeds off")
    }
}
