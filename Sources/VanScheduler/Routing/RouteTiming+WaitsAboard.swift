extension RouteTiming {
    /// Moves waiting out of the van: wherever the solved schedule has the van stand at a stop with
    /// riders aboard (arrived before the stop's window opens), the stretch of stops since the van
    /// was last empty is served later as one block, by as much of that wait as the stretch's
    /// windows allow with `margin` to spare before each window's end. The van then waits empty,
    /// before its first pickup of the stretch ("leave at …"), and the riders ride shorter.
    ///
    /// Always feasible when the schedule is: the block moves together, so every leg and every ride
    /// inside it keeps its time; a ride begun in the block and ended after it only gets shorter; the
    /// van carries nobody from before the block; and no stop at or after the wait moves. Stops with
    /// no window (`hi` infinite) limit nothing. `loads[k]` is the load after position `k`. A
    /// stretch with a stop that may open before `from` stays as it is (riders about to be picked
    /// up were told their time).
    mutating func moveWaitsOutOfTheVan(loads: [Capacity], margin: Double, from: Double = -.infinity) {
        guard count > 2 else { return }
        var stretchStart = 1
        for k in 1..<last {
            if loads[k - 1] == .zero { stretchStart = k }
            guard loads[k - 1] != .zero, stretchStart < k else { continue }
            let arrival = times[k - 1] + service[k - 1] + leg[k - 1]
            let wait = times[k] - arrival
            guard wait > timeTolerance else { continue }
            var shift = wait
            for j in stretchStart..<k {
                if lo[j] < from { shift = 0 }
                if hi[j].isFinite { shift = min(shift, hi[j] - margin - times[j]) }
            }
            guard shift > timeTolerance else { continue }
            for j in stretchStart..<k { times[j] += shift }
        }
    }
}
