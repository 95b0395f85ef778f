import Foundation
import Testing
import VanScheduler

/// Instance files copied into Tests/VanSchedulerTests/Fixtures.
enum FixtureInstance {
    static func load(_ name: String) throws -> DARPInstance {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent("\(name).txt")
        return try DARPInstance(parsing: String(contentsOf: url, encoding: .utf8))
    }
}

@Suite("Cordeau instance parser")
struct DARPInstanceTests {
    @Test("reads a2-16")
    func readsA216() throws {
        let instance = try FixtureInstance.load("a2-16")
        #expect(instance.vehicleCount == 2)
        #expect(instance.requestCount == 16)
        #expect(instance.maxRouteDuration == 480)
        #expect(instance.capacity == 3)
        #expect(instance.maxRideTime == 30)
        #expect(instance.nodes.count == 34)
        #expect(instance.nodes[1] == DARPInstance.Node(x: -1.198, y: -5.164, service: 3, load: 1, earliest: 0, latest: 1440))
        #expect(instance.nodes[33].latest == 480)

        let problem = instance.problem
        #expect(problem.requests.count == 16)
        #expect(problem.requests[0].pickup == 1 && problem.requests[0].dropoff == 17)
        #expect(problem.vehicles.count == 2 && problem.vehicles[0].endDepot == 33)
        #expect(abs(problem.travel.cost(0, 1) - (1.198 * 1.198 + 5.164 * 5.164).squareRoot()) < 1e-12)
    }

    @Test("an optimal a2-16 plan is feasible and costs 294.25")
    func knownPlan() throws {
        let instance = try FixtureInstance.load("a2-16")
        let problem = instance.problem
        let ids = [
            [10, 5, 26, 21, 14, 30, 15, 31, 7, 16, 23, 32],
            [12, 6, 28, 22, 4, 11, 27, 20, 3, 19, 13, 29, 9, 8, 25, 24, 2, 18, 1, 17],
        ]
        let plan = RoutePlan(
            routes: ids.enumerated().map { vehicle, nodes in
                VehicleRoute(vehicle: vehicle, stops: nodes.map { $0 <= 16 ? .pickup($0 - 1) : .dropoff($0 - 17) })
            }, unassigned: [])
        let evaluator = RouteEvaluator(problem: problem)
        #expect(evaluator.violations(in: plan).isEmpty)
        #expect(abs(plan.cost(in: problem) - 294.25) < 0.005)
        #expect(instance.nodeIDs(of: plan.routes[0]) == [0] + ids[0] + [33])
    }

    @Test("rejects a malformed header")
    func rejectsBadHeader() {
        #expect(throws: DARPInstance.ParseError.self) { try DARPInstance(parsing: "2 16 480\n") }
    }
}
