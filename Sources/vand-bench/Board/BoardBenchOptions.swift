import Foundation

/// Command line of `vand-bench board`.
struct BoardBenchOptions: Sendable {
    static let usage = "usage: vand-bench board [--seed N] [--rides N] [--vans N] [--on-road N] [--renders N] [--vand PATH]"

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
    /// The vand binary to run (default: the one next to vand-bench).
    var vand: String?

    /// The defaults.
    init() {}

    /// Parses the arguments after `board`; throws a one-line message on misuse.
    init(arguments: [String]) throws(CampusBenchError) {
        var rest = arguments[...]
        func count(_ option: String, from minimum: Int = 1) throws(CampusBenchError) -> Int {
            guard let value = rest.popFirst().flatMap({ Int($0) }), value >= minimum else {
                throw CampusBenchError("\(option) needs an integer of at least \(minimum)")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--seed":
                guard let value = rest.popFirst().flatMap({ UInt64($0) }) else { throw CampusBenchError("--seed needs a non-negative integer") }
                seed = value
            case "--rides": rides = try count(argument)
            case "--vans": vans = try count(argument)
            case "--on-road": onRoad = try count(argument, from: 0)
            case "--renders": renders = try count(argument)
            case "--vand":
                guard let path = rest.popFirst() else { throw CampusBenchError("--vand needs a path") }
                vand = path
            default: throw CampusBenchError("unknown argument \(argument); \(Self.usage)")
            }
        }
        guard onRoad <= vans else { throw CampusBenchError("--on-road cannot be more than --vans") }
    }

    /// The command line that reproduces this run.
    var commandLine: String {
        "vand-bench board --seed \(seed) --rides \(rides) --vans \(vans) --on-road \(onRoad) --renders \(renders)"
    }
}
