/// Command line of `darp-bench`.
struct DARPBenchOptions {
    static let usage = "usage: vand-bench darp FILE... [--seconds S] [--routes OUT] [--seed N] [--iterations N]"

    var files: [String] = []
    var seconds = 30.0
    var routesPath: String?
    var seed: UInt64 = 1
    var iterations = Int.max

    /// Parses the arguments after the program name; throws a one-line message on misuse.
    init(arguments: [String]) throws(DARPBenchError) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--seconds":
                guard let value = rest.popFirst().flatMap(Double.init), value >= 0 else {
                    throw DARPBenchError("--seconds needs a number of seconds")
                }
                seconds = value
            case "--routes":
                guard let value = rest.popFirst() else { throw DARPBenchError("--routes needs an output file") }
                routesPath = value
            case "--seed":
                guard let value = rest.popFirst().flatMap({ UInt64($0) }) else {
                    throw DARPBenchError("--seed needs a non-negative integer")
                }
                seed = value
            case "--iterations":
                guard let value = rest.popFirst().flatMap({ Int($0) }), value >= 0 else {
                    throw DARPBenchError("--iterations needs a non-negative integer")
                }
                iterations = value
            default:
                guard !argument.hasPrefix("--") else { throw DARPBenchError("unknown option \(argument); \(DARPBenchOptions.usage)") }
                files.append(argument)
            }
        }
        guard !files.isEmpty else { throw DARPBenchError(DARPBenchOptions.usage) }
    }
}

/// A one-line message for stderr.
struct DARPBenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
