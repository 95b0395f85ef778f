/// Roulette-wheel choice among operators, with weights that follow each one's recent success.
struct AdaptiveWeights: Sendable {
    private(set) var weights: [Double]
    private var scores: [Double]
    private var uses: [Int]

    init(count: Int) {
        weights = Array(repeating: 1, count: count)
        scores = Array(repeating: 0, count: count)
        uses = Array(repeating: 0, count: count)
    }

    /// An operator index drawn with probability proportional to its weight.
    mutating func pick(_ random: inout RoutingRandom) -> Int {
        let total = weights.reduce(0, +)
        var draw = random.unit() * total
        for (index, weight) in weights.enumerated() {
            draw -= weight
            if draw < 0 {
                uses[index] += 1
                return index
            }
        }
        uses[weights.count - 1] += 1
        return weights.count - 1
    }

    /// Credits the operator used this iteration.
    mutating func reward(_ index: Int, _ score: Double) {
        scores[index] += score
    }

    /// Ends a segment: moves weights toward the average score per use.
    mutating func update(reaction: Double) {
        for index in weights.indices where uses[index] > 0 {
            let average = scores[index] / Double(uses[index])
            weights[index] = max(0.05, weights[index] * (1 - reaction) + reaction * average)
            scores[index] = 0
            uses[index] = 0
        }
    }
}
