import Foundation
import Testing
import VanDomain
@testable import vand_bench

@Suite("Simulated dwell times")
struct SimulateDwellTests {
    @Test func dwellNoiseDefaultsToTheTravelNoiseAndCanBeSet() throws {
        #expect(try SimulateOptions(arguments: ["--noise", "0.4"]).dwellCV == 0.4)
        let set = try SimulateOptions(arguments: ["--noise", "0.4", "--dwell-noise", "0.8"])
        #expect(set.dwellCV == 0.8 && set.noise == 0.4)
        #expect(set.commandLine.contains("--dwell-noise 0.8"))
        #expect(throws: CampusBenchError.self) { try SimulateOptions(arguments: ["--dwell-noise", "-1"]) }
        #expect(SimulateOptions.usage.contains("[--dwell-noise CV]"))
    }

    /// The same seed, request and stop draw the same time (both runs of a day); other stops draw
    /// other times, spread around the model's with the asked coefficient of variation.
    @Test func dwellDrawsArePerStopAndLogNormalAroundTheModel() {
        func draw(_ seed: UInt64, _ request: Int, _ pickup: Bool, cv: Double) -> Double {
            var rng = RoadSimulation.dwellGenerator(seed: seed, request: request, pickup: pickup)
            return RoadSimulation.logNormal(mean: 180, cv: cv, &rng)
        }
        #expect(draw(1, 7, true, cv: 0.3) == draw(1, 7, true, cv: 0.3))
        #expect(draw(1, 7, true, cv: 0.3) != draw(1, 7, false, cv: 0.3))
        #expect(draw(1, 7, true, cv: 0.3) != draw(1, 8, true, cv: 0.3))
        #expect(draw(1, 7, true, cv: 0.3) != draw(2, 7, true, cv: 0.3))
        #expect(draw(1, 7, true, cv: 0) == 180)
        let draws = (0..<4_000).flatMap { [draw(3, $0, true, cv: 0.3), draw(3, $0, false, cv: 0.3)] }
        let mean = draws.reduce(0, +) / Double(draws.count)
        let sd = (draws.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(draws.count)).squareRoot()
        #expect(abs(mean - 180) < 5, "mean \(mean)")
        #expect(abs(sd / mean - 0.3) < 0.03, "cv \(sd / mean)")
        #expect(draws.allSatisfy { $0 > 0 })
    }
}
