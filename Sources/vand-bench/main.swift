import Foundation

// vand-bench: benchmarks that print numbers. Build in release mode (scripts/bench).
// `vand-bench scheduler [requests]`: slot finding among 30 vans and 300 / 3,000 / 30,000 rides.
// `vand-bench events [count]`: commit of a ride change → webhook arrival (p50/p99), and reminder lateness.

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
case "events":
    let count = arguments.dropFirst().first.flatMap(Int.init) ?? 1_000
    try await EventsBenchmark(count: count).run()
default:
    FileHandle.standardError.write(Data("unknown benchmark '\(which)'; try: scheduler, events\n".utf8))
    exit(2)
}
