import Foundation

/// Improves a feasible plan by adaptive large neighbourhood search (ALNS).
///
/// Each iteration removes a few requests (random, worst, related, or a route
/// segment), reinserts them (greedy or regret-2/3/4, with or without noise),
/// and accepts the result by simulated annealing; operator weights adapt to
/// success (Ropke and Pisinger 2006; Ropke, Cordeau and Laporte 2007). Every
/// reinsertion is checked exactly, the result is verified again from scratch,
/// no served request is ever dropped, and the returned plan never costs more
/// than the input.
public struct PlanImprover: Sendable {
    /// The problem the plans belong to.
    public let problem: RoutingProblem
    /// Search tuning.
    public var settings: ImproverSettings

    /// An improver for plans of `problem`.
    public init(problem: RoutingProblem, settings: ImproverSettings = ImproverSettings()) {
        self.problem = problem
        self.settings = settings
    }

    /// A plan at least as good as `plan`: no more unassigned requests, and no higher cost.
    ///
    /// Deterministic for a seed when `limit` counts iterations. Returns `plan`
    /// unchanged if it is infeasible.
    public func improve(_ plan: RoutePlan, seed: UInt64, limit: ImprovementLimit) -> RoutePlan {
        var pickupPosition = Array(repeating: -1, count: problem.requests.count)
        guard var current = PlanState(plan: plan, problem: problem, pickupPosition: &pickupPosition) else {
            return plan
        }
        let allowedUnassigned = Set(current.unassigned)
        var random = RoutingRandom(seed: seed)
        var repair = PlanRepair()
        var removal = PlanRemoval(problem: problem)
        let noise = settings.noise * maxTravelCost()

        if !current.unassigned.isEmpty {
            var trial = current
            if let left = repair.insert(
                trial.unassigned, into: &trial, problem: problem, regret: 2, noise: 0,
                random: &random, pickupPosition: &pickupPosition),
                left.count < current.unassigned.count
            {
                trial.recomputeCost()
                current = trial
            }
        }
        var best = current
        let startTemperature = max(settings.startWorsening * current.cost / log(2), 1e-9)
        var removalWeights = AdaptiveWeights(count: RemovalOperator.allCases.count)
        var insertionWeights = AdaptiveWeights(count: 4)
        var noiseWeights = AdaptiveWeights(count: 2)
        var visited = Set<UInt64>()
        var sinceBest = 0
        var iteration = 0

        while iteration < limit.maxIterations {
            let progress = limit.progress()
            if progress >= 1 { break }
            let iterationShare = limit.maxIterations == .max ? 0 : Double(iteration) / Double(limit.maxIterations)
            let temperature = startTemperature * pow(settings.endTemperatureFactor, max(progress, iterationShare))
            iteration += 1
            sinceBest += 1
            if iteration % settings.segmentLength == 0 {
                removalWeights.update(reaction: settings.reaction)
                insertionWeights.update(reaction: settings.reaction)
                noiseWeights.update(reaction: settings.reaction)
            }
            if sinceBest > settings.restartAfter {
                current = best
                sinceBest = 0
            }

            let movable = removal.removable(in: current)
            guard !movable.isEmpty else { break }
            let most = max(1, min(settings.maxRemoved, Int(settings.maxRemovedFraction * Double(movable.count))))
            let fewest = min(settings.minRemoved, most)
            let count = fewest + random.below(most - fewest + 1)
            let removalChoice = removalWeights.pick(&random)
            let insertionChoice = insertionWeights.pick(&random)
            let noiseChoice = noiseWeights.pick(&random)

            var candidate = current
            let removed = removal.choose(
                RemovalOperator.allCases[removalChoice], count: count, from: movable,
                plan: candidate, random: &random)
            guard candidate.remove(removed, problem: problem, pickupPosition: &pickupPosition),
                let left = repair.insert(
                    candidate.unassigned, into: &candidate, problem: problem,
                    regret: insertionChoice + 1, noise: noiseChoice == 1 ? noise : 0,
                    random: &random, pickupPosition: &pickupPosition),
                left.count <= current.unassigned.count,
                left.allSatisfy({ allowedUnassigned.contains($0) })
            else {
                continue
            }
            candidate.recomputeCost()

            let fewerUnassigned = candidate.unassigned.count < current.unassigned.count
            let delta = candidate.cost - current.cost
            let accepted =
                fewerUnassigned || delta < -1e-9
                || random.unit() < exp(-max(delta, 0) / temperature)
            guard accepted else { continue }
            let isNew = visited.insert(fingerprint(candidate)).inserted
            if visited.count > 500_000 { visited.removeAll(keepingCapacity: true) }
            var score = 0.0
            if candidate.unassigned.count < best.unassigned.count
                || (candidate.unassigned.count == best.unassigned.count && candidate.cost < best.cost - 1e-9)
            {
                best = candidate
                sinceBest = 0
                score = 33
            } else if isNew {
                score = fewerUnassigned || delta < -1e-9 ? 9 : 13
            }
            current = candidate
            removalWeights.reward(removalChoice, score)
            insertionWeights.reward(insertionChoice, score)
            noiseWeights.reward(noiseChoice, score)
        }

        let result = best.plan
        let evaluator = RouteEvaluator(problem: problem)
        let original = plan.cost(in: problem)
        guard evaluator.violations(in: result).isEmpty,
            result.unassigned.allSatisfy({ allowedUnassigned.contains($0) }),
            result.unassigned.count < allowedUnassigned.count || result.cost(in: problem) <= original + 1e-9
        else {
            return plan
        }
        return result
    }

    private func maxTravelCost() -> Double {
        let tables = problem.tables
        return tables.costs.reduce(0) { max($0, $1.isFinite ? $1 : 0) }
    }

    /// A hash of the routes that is the same in every process (unlike `Hasher`).
    private func fingerprint(_ plan: PlanState) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for route in plan.routes {
            for code in route.codes {
                hash = (hash ^ UInt64(truncatingIfNeeded: code)) &* 0x0000_0100_0000_01B3
            }
            hash = (hash ^ 0xFFFF) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
