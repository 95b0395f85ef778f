/// When the improver stops. The engine reads no clock: the caller measures time.
public struct ImprovementLimit {
    /// The most iterations to run.
    public var maxIterations: Int
    /// The fraction of the caller's budget used so far (0 at the start, 1 or more: stop).
    public var progress: () -> Double

    /// Stop after a fixed number of iterations; the run is then fully determined by the seed.
    public static func iterations(_ count: Int) -> ImprovementLimit {
        ImprovementLimit(maxIterations: count, progress: { 0 })
    }

    /// Stop when `progress` reaches 1 (for example elapsed time over budget), or after `maxIterations`.
    public static func progress(maxIterations: Int = .max, _ progress: @escaping () -> Double) -> ImprovementLimit {
        ImprovementLimit(maxIterations: maxIterations, progress: progress)
    }
}
