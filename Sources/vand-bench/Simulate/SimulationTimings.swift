import Foundation

/// How long the services took on the machine, per call, in one run of a simulated day
/// (`--timings`; issue 32, item 6): the clock of the day is simulated, these are wall seconds.
struct SimulationTimings: Sendable, Encodable {
    /// Each planner pass: a re-plan from the road (``RoadReplanner/replan(day:now:actor:)``), or,
    /// without re-planning, the projection that looks for late rides.
    var passes: [Double] = []
    /// Each booking request, as a rider makes it: the booking, and after a refusal her booking
    /// at the nearest time offered (so an upper bound on one decision).
    var bookings: [Double] = []
    /// Each position a van posts, recorded and then its van's ETAs worked out from it
    /// (``ETAService/van(_:now:)``), as a rider's live stream gets them.
    var positionETAs: [Double] = []

    /// Runs `body` and adds its wall time to `series`.
    static func time<T>(_ series: inout [Double], _ body: () async throws -> T) async rethrows -> T {
        let started = ContinuousClock.now
        let result = try await body()
        let elapsed = ContinuousClock.now - started
        series.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        return result
    }

    /// The `q` quantile of `series`, in milliseconds (0 when empty).
    static func milliseconds(_ series: [Double], _ q: Double) -> Double {
        guard !series.isEmpty else { return 0 }
        let sorted = series.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded(.up)))] * 1_000
    }

    /// The text line.
    var line: String {
        String(
            format: "  timings (wall ms): planner pass p50 %.0f, p99 %.0f, max %.0f (%d passes); booking p50 %.1f, p99 %.1f (%d);"
                + " position to ETAs p50 %.1f, p99 %.1f (%d)",
            Self.milliseconds(passes, 0.5), Self.milliseconds(passes, 0.99), Self.milliseconds(passes, 1), passes.count,
            Self.milliseconds(bookings, 0.5), Self.milliseconds(bookings, 0.99), bookings.count, Self.milliseconds(positionETAs, 0.5),
            Self.milliseconds(positionETAs, 0.99), positionETAs.count)
    }

    /// The figures under `--json`, as `timings` in each run.
    enum CodingKeys: String, CodingKey {
        case passP50Ms = "planner_pass_p50_ms", passP99Ms = "planner_pass_p99_ms", passes = "planner_passes"
        case bookingP99Ms = "booking_p99_ms", bookings = "booking_requests"
        case positionETAP99Ms = "position_to_eta_p99_ms", positions = "positions"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.milliseconds(passes, 0.5).rounded(), forKey: .passP50Ms)
        try c.encode(Self.milliseconds(passes, 0.99).rounded(), forKey: .passP99Ms)
        try c.encode(passes.count, forKey: .passes)
        try c.encode((Self.milliseconds(bookings, 0.99) * 10).rounded() / 10, forKey: .bookingP99Ms)
        try c.encode(bookings.count, forKey: .bookings)
        try c.encode((Self.milliseconds(positionETAs, 0.99) * 10).rounded() / 10, forKey: .positionETAP99Ms)
        try c.encode(positionETAs.count, forKey: .positions)
    }
}
