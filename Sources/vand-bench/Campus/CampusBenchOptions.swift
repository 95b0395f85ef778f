import Foundation
import VanServices

/// Command line of `vand-bench campus`.
struct CampusBenchOptions: Sendable {
    static let usage = "usage: vand-bench campus [--seed N] [--rides N] [--vans N] [--seats N]"

    /// The generator's seed.
    var seed: UInt64 = 1
    /// Requests in the day.
    var rides = 300
    /// Vans, cycling through the demo fleet.
    var vans = DemoData.vans.count
    /// Seats of every van in the shared model (default: the demo fleet's).
    var seats: Int?

    /// The defaults.
    init() {}

    /// Parses the arguments after `campus`; throws a one-line message on misuse.
    init(arguments: [String]) throws(CampusBenchError) {
        var rest = arguments[...]
        func positive(_ option: String) throws(CampusBenchError) -> Int {
            guard let value = rest.popFirst().flatMap({ Int($0) }), value > 0 else { throw CampusBenchError("\(option) needs a positive integer") }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--seed":
                guard let value = rest.popFirst().flatMap({ UInt64($0) }) else { throw CampusBenchError("--seed needs a non-negative integer") }
                seed = value
            case "--rides": rides = try positive(argument)
            case "--vans": vans = try positive(argument)
            case "--seats": seats = try positive(argument)
            default: throw CampusBenchError("unknown argument \(argument); \(Self.usage)")
            }
        }
    }

    /// The command line that reproduces this run.
    var commandLine: String {
        "vand-bench campus --seed \(seed) --rides \(rides) --vans \(vans)" + (seats.map { " --seats \($0)" } ?? "")
    }
}
