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
        var rest = BenchArguments(arguments)
        while let argument = rest.next() {
            switch argument {
            case "--seed": seed = try rest.seed()
            case "--rides": rides = try rest.count(argument)
            case "--vans": vans = try rest.count(argument)
            case "--seats": seats = try rest.count(argument)
            default: throw CampusBenchError("unknown argument \(argument); \(Self.usage)")
            }
        }
    }

    /// The command line that reproduces this run.
    var commandLine: String {
        "vand-bench campus --seed \(seed) --rides \(rides) --vans \(vans)" + (seats.map { " --seats \($0)" } ?? "")
    }
}
