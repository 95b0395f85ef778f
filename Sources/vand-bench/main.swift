import Foundation
import VanScheduler

// vand-bench: benchmarks that print numbers. Build in release mode (scripts/bench).
// `vand-bench scheduler [requests] [sizes]`: one booking decision on a day of 300 / 3,000 rides on 30 vans' shared routes.
// `vand-bench fixed-json PORT FILE`: serves FILE at GET /fixed (the reads baseline of scripts/bench-load).
// `vand-bench events [count]`: commit of a ride change → webhook arrival (p50/p99), and reminder lateness.
// `vand-bench darp FILE… [--seconds S] [--routes OUT] [--seed N]`: the Cordeau dial-a-ride instances,
//   solved by the engine vand books with (insertion, then improvement); scripts/check-darp checks OUT.
// `vand-bench campus [--seed N] [--rides N] [--vans N] [--seats N]`: a generated campus day booked
//   through BookingService, shared rides against one rider per van; checks the stored routes.
// `vand-bench fanout PORT TOKENS [--seconds S] [--interval S]`: van positions → riders' ETA events on
//   their notification streams, against a running vand (scripts/bench-fanout prepares it).
// `vand-bench simulate [--seed N] [--rides N] [--vans N] [--noise CV] [--no-shows RATE] [--replan-frozen MIN] [--eta-trace] [--json]`: that day driven on the road by
//   simulated drivers, with and without re-planning from the road; last line: on-time pickups with and without.
// `vand-bench board [--seed N] [--rides N] [--vans N] [--on-road N] [--renders N]`: the dispatcher's day board
//   of that day (300 rides on 8 vans, 3 on the road) served by the release vand next to this binary: p50/p95/max ms.

let arguments = CommandLine.arguments.dropFirst()
let which = arguments.first ?? "scheduler"
let usages = [
    "scheduler": "usage: vand-bench scheduler [REQUESTS] [SIZES, e.g. 300,3000]",
    "fixed-json": "usage: vand-bench fixed-json PORT FILE",
    "events": "usage: vand-bench events [COUNT]",
    "darp": DARPBenchOptions.usage,
    "campus": CampusBenchOptions.usage,
    "fanout": FanoutBenchmark.usage,
    "simulate": SimulateOptions.usage,
    "board": BoardBenchOptions.usage,
]
// `-h`/`--help` after a benchmark's name prints its usage and succeeds; alone, every usage.
if ["-h", "--help", "help"].contains(which) {
    print(usages.keys.sorted().map { usages[$0]! }.joined(separator: "\n"))
    exit(0)
}
if let usage = usages[which], arguments.dropFirst().contains(where: { $0 == "-h" || $0 == "--help" }) {
    print(usage)
    exit(0)
}
switch which {
case "scheduler":
    let requests = arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
    let sizes = arguments.dropFirst(2).first.map { $0.split(separator: ",").compactMap { Int($0) } } ?? [300, 3_000]
    print(
        "one booking decision (Scheduler.check) on a day of shared routes, 30 vans of 8 seats (\(requests) requests per size; \(ProcessInfo.processInfo.activeProcessorCount) cores)"
    )
    print("rides  longest route  fill      insertion: n   p50        p99        with suggestions: n   p50        p99")
    for rides in sizes {
        let result = try SchedulerBenchmark(vans: 30, rides: rides, requests: requests).run()
        func ms(_ value: Double) -> String { String(format: "%8.3f ms", value * 1_000) }
        print(
            [
                String(result.booked).padding(toLength: 6, withPad: " ", startingAt: 0),
                String(result.longestRoute).padding(toLength: 14, withPad: " ", startingAt: 0),
                String(format: "%6.1f s", result.fillSeconds),
                String(format: "%14d", result.insertions.count), ms(result.insertions.percentile(0.5)), ms(result.insertions.percentile(0.99)),
                String(format: "%21d", result.withSuggestions.count), ms(result.withSuggestions.percentile(0.5)),
                ms(result.withSuggestions.percentile(0.99)),
            ].joined(separator: " "))
    }
case "fixed-json":
    let rest = Array(arguments.dropFirst())
    guard rest.count == 2, let port = Int(rest[0]) else {
        FileHandle.standardError.write(Data((usages[which]! + "\n").utf8))
        exit(2)
    }
    try await FixedJSONServer.run(port: port, file: rest[1])
case "darp":
    do {
        let ok = try runDARPBench(try DARPBenchOptions(arguments: Array(arguments.dropFirst())))
        exit(ok ? 0 : 1)
    } catch {
        FileHandle.standardError.write(Data("vand-bench darp: \(error)\n".utf8))
        exit(2)
    }
case "campus":
    do {
        let ok = try await CampusBenchmark(options: try CampusBenchOptions(arguments: Array(arguments.dropFirst()))).run()
        exit(ok ? 0 : 1)
    } catch {
        FileHandle.standardError.write(Data("vand-bench campus: \(error)\n".utf8))
        exit(2)
    }
case "fanout":
    do {
        let ok = try await FanoutBenchmark(arguments: Array(arguments.dropFirst())).run()
        exit(ok ? 0 : 1)
    } catch {
        FileHandle.standardError.write(Data("vand-bench fanout: \(error)\n".utf8))
        exit(2)
    }
case "simulate":
    do {
        try await SimulateBenchmark(options: try SimulateOptions(arguments: Array(arguments.dropFirst()))).run()
    } catch {
        FileHandle.standardError.write(Data("vand-bench simulate: \(error)\n".utf8))
        exit(2)
    }
case "board":
    do {
        let ok = try await BoardBenchmark(options: try BoardBenchOptions(arguments: Array(arguments.dropFirst()))).run()
        exit(ok ? 0 : 1)
    } catch {
        FileHandle.standardError.write(Data("vand-bench board: \(error)\n".utf8))
        exit(2)
    }
case "events":
    let count = arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
    try await EventsBenchmark(count: count).run()
default:
    FileHandle.standardError.write(Data("unknown benchmark '\(which)'; try: \(usages.keys.sorted().joined(separator: ", ")), or --help\n".utf8))
    exit(2)
}
