import Foundation
import VanScheduler

/// Solves every instance of the options, prints the table, writes routes; true when all are fully served and feasible.
func runDARPBench(_ options: DARPBenchOptions) throws(DARPBenchError) -> Bool {
    var routesText = "# vand-bench darp routes: `INSTANCE cost: TOTAL` then `INSTANCE VEHICLE: node ids` per used vehicle\n"
    var gaps: [Double] = []
    var allGood = true
    print(
        pad("instance", 10) + pad("cost", 11, right: true) + pad("best", 10, right: true)
            + pad("gap %", 9, right: true) + pad("served", 9, right: true) + pad("vehicles", 10, right: true)
            + pad("seconds", 9, right: true) + pad("iters", 9, right: true))
    for path in options.files {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw DARPBenchError("cannot read \(path): \(error.localizedDescription)")
        }
        let instance: DARPInstance
        do {
            instance = try DARPInstance(parsing: text)
        } catch {
            throw DARPBenchError("\(path): \(error)")
        }
        let problem = instance.problem
        let clock = ContinuousClock()
        let start = clock.now
        let insertion = CheapestInsertion(problem: problem)
        let initial = insertion.constructedPlan(regret: 2)
        let budget = options.seconds
        var iterations = 0
        let improver = PlanImprover(problem: problem)
        let plan = improver.improve(
            initial, seed: options.seed,
            limit: .progress(maxIterations: options.iterations) {
                iterations += 1
                return budget > 0 ? seconds(start.duration(to: clock.now)) / budget : 1
            })
        let elapsed = seconds(start.duration(to: clock.now))
        let evaluator = RouteEvaluator(problem: problem)
        let violations = evaluator.violations(in: plan)
        let cost = plan.cost(in: problem)
        let served = plan.servedCount
        let best = publishedBest[name]
        let gap = best.map { 100 * (cost - $0) / $0 }
        if let gap, served == instance.requestCount { gaps.append(gap) }
        if served != instance.requestCount || !violations.isEmpty { allGood = false }
        print(
            pad(name, 10) + pad(format(cost, 2), 11, right: true) + pad(best.map { format($0, 2) } ?? "-", 10, right: true)
                + pad(gap.map { format($0, 2) } ?? "-", 9, right: true)
                + pad("\(served)/\(instance.requestCount)", 9, right: true)
                + pad("\(plan.vehiclesUsed)/\(instance.vehicleCount)", 10, right: true)
                + pad(format(elapsed, 1), 9, right: true) + pad("\(max(iterations - 1, 0))", 9, right: true)
                + (violations.isEmpty ? "" : "  INFEASIBLE: \(violations.prefix(3))"))
        routesText += "\(name) cost: \(String(format: "%.17g", cost))\n"
        for route in plan.routes where !route.stops.isEmpty {
            routesText += "\(name) \(route.vehicle): " + instance.nodeIDs(of: route).map(String.init).joined(separator: " ") + "\n"
        }
    }
    if !gaps.isEmpty {
        print("mean gap: \(format(gaps.reduce(0, +) / Double(gaps.count), 3)) % over \(gaps.count) instances")
    }
    if let path = options.routesPath {
        do {
            try routesText.write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw DARPBenchError("cannot write \(path): \(error.localizedDescription)")
        }
    }
    return allGood
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

private func format(_ value: Double, _ decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    guard text.count < width else { return text + " " }
    let space = String(repeating: " ", count: width - text.count)
    return right ? space + text : text + space
}
