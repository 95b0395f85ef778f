import Foundation

/// Command line of `vand-bench simulate`.
struct SimulateOptions: Sendable {
    static let usage = "usage: vand-bench simulate [--seed N] [--rides N] [--vans N] [--noise CV] [--dwell-noise CV] [--no-shows RATE] [--cancels RATE] [--replan-every SECONDS]"

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

    /// The coefficient of variation the dwell times are drawn with: `--dwell-noise`, else `--noise`.
    var dwellCV: Double { dwellNoise ?? noise }

    /// The defaults.
    init() {}

    /// Parses the arguments after `simulate`; throws a one-line message on misuse.
    init(arguments: [String]) throws(CampusBenchError) {
        var rest = arguments[...]
        func positive(_ option: String) throws(CampusBenchError) -> Int {
            guard let value = rest.popFirst().flatMap({ Int($0) }), value > 0 else { throw CampusBenchError("\(option) needs a positive integer") }
            return value
        }
        func share(_ option: String, upTo limit: Double) throws(CampusBenchError) -> Double {
            guard let value = rest.popFirst().flatMap({ Double($0) }), value.isFinite, value >= 0, value <= limit else {
                throw CampusBenchError("\(option) needs a number from 0 to \(limit)")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--seed":
                guard let value = rest.popFirst().flatMap({ UInt64($0) }) else { throw CampusBenchError("--seed needs a non-negative integer") }
                seed = value
            case "--rides": rides = try positive(argument)
            case "--vans": vans = try positive(argument)
            case "--noise": noise = try share(argument, upTo: 2)
            case "--dwell-noise": dwellNoise = try share(argument, upTo: 2)
            case "--no-shows": noShows = try share(argument, upTo: 1)
            case "--cancels": cancels = try share(argument, upTo: 1)
            case "--replan-every": replanEvery = TimeInterval(try positive(argument))
            default: throw CampusBenchError("unknown argument \(argument); \(Self.usage)")
            }
        }
    }

    /// The command line that reproduces this run.
    var commandLine: String {
        "vand-bench simulate --seed \(seed) --rides \(rides) --vans \(vans) --noise \(noise) --dwell-noise \(dwellCV) --no-shows \(noShows) --cancels \(cancels)"
            + " --replan-every \(Int(replanEvery))"
    }
}
