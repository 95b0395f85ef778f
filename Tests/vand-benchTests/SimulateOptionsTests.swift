import Foundation
import Testing
@testable import vand_bench

@Suite("Simulate options: room for will-calls, a slower road and timings")
struct SimulateOptionsTests {
    @Test func theWillCallHoldIsOffUnlessGivenAndNamedInTheCommandLine() throws {
        #expect(try SimulateOptions(arguments: []).willCallHold == nil)
        let held = try SimulateOptions(arguments: ["--will-call", "0.3", "--will-call-hold", "70"])
        #expect(held.willCallHold == 70 && held.commandLine.hasSuffix("--will-call-hold 70"))
        #expect(try SimulateOptions(arguments: ["--will-call-hold", "off"]).willCallHold == nil)
        #expect(throws: CampusBenchError.self) { try SimulateOptions(arguments: ["--will-call-hold", "481"]) }
        #expect(throws: CampusBenchError.self) { try SimulateOptions(arguments: ["--will-call-hold"]) }
        #expect(SimulateOptions.usage.contains("[--will-call-hold MINUTES|off] [--bias B] [--learn-speeds on|off] [--timings]"))
        #expect(try SimulateOptions(arguments: ["--timings"]).timings)
        let slow = try SimulateOptions(arguments: ["--bias", "0.25"])
        #expect(slow.bias == 0.25 && slow.commandLine.hasSuffix("--bias 0.25"))
        #expect(try SimulateOptions(arguments: []).bias == 0)
        #expect(try SimulateOptions(arguments: []).learnSpeeds)
        #expect(try SimulateOptions(arguments: ["--learn-speeds", "off"]).commandLine.hasSuffix("--learn-speeds off"))
        #expect(throws: CampusBenchError.self) { try SimulateOptions(arguments: ["--bias", "-0.1"]) }
    }

    @Test func timingsAreQuantilesInMillisecondsAndEncodeUnderTheirKeys() throws {
        var timings = SimulationTimings()
        timings.passes = (1...100).map { Double($0) / 1_000 }  // 1 … 100 ms
        timings.bookings = [0.002, 0.004]
        #expect(SimulationTimings.milliseconds(timings.passes, 0.5) == 51)
        #expect(SimulationTimings.milliseconds(timings.passes, 0.99) == 100)
        #expect(SimulationTimings.milliseconds(timings.passes, 1) == 100)
        #expect(SimulationTimings.milliseconds([], 0.99) == 0)
        let json = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(timings)) as? [String: Double]
        #expect(json?["planner_pass_p99_ms"] == 100 && json?["planner_passes"] == 100)
        #expect(json?["booking_p99_ms"] == 4 && json?["position_to_eta_p99_ms"] == 0 && json?["positions"] == 0)
        #expect(timings.line.contains("planner pass p50 51, p99 100, max 100 (100 passes)"))
    }
}
