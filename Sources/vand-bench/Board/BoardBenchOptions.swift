import Foundation

/// Command line of `vand-bench board`.
struct BoardBenchOptions: Sendable {
    static let usage = "usage: vand-bench board [--seed N] [--rides N] [--vans N] [--on-road N] [--renders N] [--day-rides N] [--vand PATH]"

    /// The campus day generator's seed.
    var seed: UInt64 = 1
    /// Rides on the board.
    var rides = 300
    /// Vans, cycling through the demo fleet.
    var vans = 8
    /// Vans on the road (an open shift, a fresh position, their first stops tapped).
    var onRoad = 3
    /// Timed renders of the board.
    var renders = 200
    /// When set, the booked day is copied until it holds at least this many rides
    /// (``BoardDay/copy(_:)``), to bound the staff pages on a 10,000-ride day.
    var dayRides: Int?
    /// The vand binary to run (default: the one next to vand-bench).
    var vand: String?

    /// The defaults.
    init() {}

    /// Parses the arguments after `board`; throws a one-line message on misuse.
    init(arguments: [String]) throws(CampusBenchError) {
        var rest = BenchArguments(arguments)
        while let argument = rest.next() {
            switch argument {
            case "--seed": seed = try rest.seed()
            case "--rides": rides = try rest.count(argument)
            case "--vans": vans = try rest.count(argument)
            case "--on-road": onRoad = try rest.count(argument, from: 0)
            case "--renders": renders = try rest.count(argument)
            case "--day-rides": dayRides = try rest.count(argument)
            case "--vand": vand = try rest.path(argument)
            default: throw CampusBenchError("unknown argument \(argument); \(Self.usage)")
            }
        }
        guard onRoad <= vans else { throw CampusBenchError("--on-road cannot be more than --vans") }
    }

    /// The command line that reproduces this run.
    var commandLine: String {
        "vand-bench board --seed \(seed) --rides \(rides) --vans \(vans) --on-road \(onRoad) --renders \(renders)"
            + (dayRides.map { " --day-rides \($0)" } ?? "")
    }
}
