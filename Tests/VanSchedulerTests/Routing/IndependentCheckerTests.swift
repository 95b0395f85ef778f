import Foundation
import Testing
import VanScheduler

/// Solutions of the engine vand books with, checked by scripts/check-darp: an independent checker
/// written in Python from the benchmark's definition (windows, ride times, capacity, route
/// duration, cost), which decides the timing itself by difference constraints.
@Suite("DARP solutions pass the independent checker")
struct IndependentCheckerTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let checker = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/check-darp")

    @Test func insertionAndImprovementOnThreeInstances() throws {
        var routes = "# IndependentCheckerTests\n"
        var files: [String] = []
        for name in ["a2-16", "a3-18", "a4-16"] {
            let path = Self.fixtures.appendingPathComponent("\(name).txt").path
            let instance = try DARPInstance(parsing: try String(contentsOfFile: path, encoding: .utf8))
            let problem = instance.problem
            let start = CheapestInsertion(problem: problem).constructedPlan(regret: 2)
            let plan = PlanImprover(problem: problem).improve(start, seed: 1, limit: .iterations(300))
            #expect(plan.servedCount == instance.requestCount, "\(name): not every request served")
            #expect(plan.cost(in: problem) <= start.cost(in: problem) + 1e-9)
            routes += "\(name) cost: \(String(format: "%.17g", plan.cost(in: problem)))\n"
            for route in plan.routes where !route.stops.isEmpty {
                routes += "\(name) \(route.vehicle): " + instance.nodeIDs(of: route).map(String.init).joined(separator: " ") + "\n"
            }
            files.append(path)
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("vand-darp-\(getpid()).txt")
        try routes.write(to: out, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.checker.path, out.path] + files
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "checker: \(output)")
        #expect(output.components(separatedBy: "ok").count - 1 >= 3, "checker: \(output)")
    }
}
