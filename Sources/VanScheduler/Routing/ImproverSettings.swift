/// Tuning of the improver's adaptive large neighbourhood search.
public struct ImproverSettings: Hashable, Sendable {
    /// Fewest requests removed per iteration.
    public var minRemoved = 4
    /// Most requests removed per iteration, as a fraction of the movable requests.
    public var maxRemovedFraction = 0.4
    /// Most requests removed per iteration, absolute.
    public var maxRemoved = 60
    /// A plan this much worse (relative) than the start is accepted with probability 1/2 at first.
    public var startWorsening = 0.05
    /// Final temperature as a fraction of the first.
    public var endTemperatureFactor = 0.002
    /// Noise on insertion costs, as a fraction of the longest travel cost.
    public var noise = 0.025
    /// Iterations between updates of operator weights.
    public var segmentLength = 100
    /// How fast operator weights follow their recent scores (0...1).
    public var reaction = 0.1
    /// Iterations without a new best after which the search restarts from the best plan.
    public var restartAfter = 4_000

    /// The defaults, after Ropke and Pisinger (2006) and Ropke, Cordeau and Laporte (2007).
    public init() {}
}
