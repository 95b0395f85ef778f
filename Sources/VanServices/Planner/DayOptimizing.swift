import Foundation
import VanDomain

/// What improves a day's routes: ``PlanOptimizer``, or a stand-in a test holds at a gate.
public protocol DayOptimizing: Sendable {
    /// Improves `day` for about `seconds` of search per stretch of service, as `actor`; rides
    /// planned to start before `now` plus the lock lead are not moved; `clock` measures the budget.
    func optimize(day: LocalDate, seconds: Double, now: Date, clock: any TimeSource, actor: String) async throws -> PlanOptimizer.Outcome
}
