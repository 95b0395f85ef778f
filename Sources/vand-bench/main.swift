import Foundation
import VanScheduler

// vand-bench: benchmarks that print numbers. Build in release mode (scripts/bench).
// `vand-bench scheduler [requests]`: slot finding among 30 vans and 300 / 3,000 / 30,000 rides.
// `vand-bench fixed-json PORT FILE`: serves FILE at GET /fixed (the reads baseline of scripts/bench-load).
// `vand-bench events [count]`: commit of a ride change → webhook arrival (p50/p99), and reminder lateness.
// `vand-bench darp FILE… [--seconds S] [--routes OUT] [--seed N]`: the Cordeau dial-a-ride instances,
//   solved by the engine vand books with (insertion, then improvement); scripts/check-darp checks OUT.
// `vand-bench campus [--seed N] [--rides N] [--vans N] [--seats N]`: a generated campus day booked
//   through BookingService, shared rides against one rider per van; checks the stored routes.

let arguments = CommandLine.arguments.dropFirst()
let which = arguments.first ?? "scheduler"
switch which {
case "scheduler":
    let requests = arguments.dropFirst().first.flatMap(Int.init) ?? 2_000
    print("slot finding: Scheduler.check for one request, 30 vans, a busy day (\(requests) requests each; \(ProcessInfo.processInfo.activeProcessorCount) cores)")
    print("rides     median      p99         feasible")
    for rides in [300, 3_000, 30_000] {
        let result = try SchedulerBenchmark(vans: 30, rides: rides, requests: requests).run()
        let median = String(format: "%8.3f ms", result.median * 1_000)
        let p99 = String(format: "%8.3f ms", result.p99 * 1_000)
        print("\(String(rides).padding(toLength: 8, withPad: " ", startingAt: 0))  \(median)  \(p99)  \(String(format: "%5.1f%%", result.feasibleShare * 100))")
    }
case "fixed-json":
    let rest = Array(arguments.dropFirst())
    guard rest.count == 2, let port = Int(rest[0]) else {
        FileHandle.standardError.write(Data("usage: vand-bench fixed-json PORT FILE\n".utf8))
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
case "events":
    let count = arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
    try await EventsBenchmark(count: count).run()
default:
    FileHandle.standardError.write(Data("unknown benchmark '\(which)'; try: scheduler, events, darp, campus, fixed-json\n".utf8))
    exit(2)
}
