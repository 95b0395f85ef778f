import Foundation
import Testing
import VanServices
@testable import vand_bench

@Suite("Simulate: the frozen horizon and the ETA trace")
struct SimulateETATraceTests {
    @Test func theFrozenHorizonAndTheTraceAreOptions() throws {
        #expect(SimulateOptions().replanFrozen == RoadReplanner.defaultFrozen)
        #expect(!SimulateOptions().etaTrace)
        let off = try SimulateOptions(arguments: ["--replan-frozen", "0", "--eta-trace"])
        #expect(off.replanFrozen == 0 && off.etaTrace)
        #expect(off.commandLine.contains("--replan-frozen 0"))
        #expect(try SimulateOptions(arguments: ["--replan-frozen", "15"]).replanFrozen == 900)
        #expect(throws: CampusBenchError.self) { try SimulateOptions(arguments: ["--replan-frozen", "-1"]) }
        #expect(SimulateOptions.usage.contains("[--replan-frozen MINUTES] [--eta-trace]"))
    }

    /// She is told at 0 that her van, one stop away, is at her door at 15:00; re-planning moves
    /// another ride onto her van after that, which it serves first: the van comes at 20:00, and
    /// the trace names the move.
    @Test func theTraceNamesARideMovedOntoHerVanAheadOfHer() {
        let t0 = Date(timeIntervalSinceReferenceDate: 800_000_000)
        let her = UUID(), first = UUID(), moved = UUID(), elsewhere = UUID()
        var log = RoadSimulation.Log()
        log.eta[her] = t0.addingTimeInterval(900)
        log.etaTold[her] = ETATrace.Told(
            at: t0, van: 1, eta: t0.addingTimeInterval(900), arrival: t0.addingTimeInterval(900),
            plannedAt: t0.addingTimeInterval(900), source: "position",
            before: [ETATrace.StopRef(ride: first, pickup: true)])
        log.moves[moved] = [(t0.addingTimeInterval(60), 1)]
        log.eta[elsewhere] = t0.addingTimeInterval(600)
        log.etaTold[elsewhere] = ETATrace.Told(
            at: t0, van: 2, eta: t0.addingTimeInterval(600), arrival: t0.addingTimeInterval(600),
            plannedAt: t0.addingTimeInterval(600), source: "tap", before: [])
        log.arrivals = [
            ETATrace.Arrival(van: 1, ride: first, pickup: true, at: t0.addingTimeInterval(300)),
            ETATrace.Arrival(van: 2, ride: elsewhere, pickup: true, at: t0.addingTimeInterval(630)),
            ETATrace.Arrival(van: 1, ride: moved, pickup: true, at: t0.addingTimeInterval(700)),
            ETATrace.Arrival(van: 1, ride: her, pickup: true, at: t0.addingTimeInterval(1_200)),
        ]
        let lines = ETATrace.lines(log, windows: [her: DateInterval(start: t0.addingTimeInterval(900), duration: 900)])
        let off = lines.filter { $0.contains("ETA off") }
        #expect(off.count == 1, "only her pickup was off by more than 3 minutes")
        #expect(off.first?.contains("ETA off +5.0 min") == true)
        #expect(off.first?.contains(ETATrace.Cause.insertedByMove.rawValue) == true)
        #expect(lines.contains("    \(ETATrace.Cause.insertedByMove.rawValue): 1, 1, 5.0"))
        #expect(lines.contains("    \(ETATrace.Cause.sameStops.rawValue): 1, 0, 0.5"))
    }
}
