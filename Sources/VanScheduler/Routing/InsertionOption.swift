/// Where a request would join a plan, and what that adds.
public struct InsertionOption: Hashable, Sendable {
    /// The vehicle whose route takes the request.
    public var vehicle: Int
    /// Index of the pickup in the route's new stop list.
    public var pickupIndex: Int
    /// Index of the drop-off in the route's new stop list (greater than `pickupIndex`).
    public var dropoffIndex: Int
    /// Added travel cost.
    public var addedCost: Double
    /// Added waiting in the route's earliest schedule; breaks ties in cost.
    public var addedWaiting: Double

    /// An insertion at the given positions.
    public init(vehicle: Int, pickupIndex: Int, dropoffIndex: Int, addedCost: Double, addedWaiting: Double) {
        self.vehicle = vehicle
        self.pickupIndex = pickupIndex
        self.dropoffIndex = dropoffIndex
        self.addedCost = addedCost
        self.addedWaiting = addedWaiting
    }

    /// The plan with the request inserted here.
    public func applied(to plan: RoutePlan, request: Int) -> RoutePlan {
        var plan = plan
        plan.routes[vehicle].stops.insert(.pickup(request), at: pickupIndex)
        plan.routes[vehicle].stops.insert(.dropoff(request), at: dropoffIndex)
        plan.unassigned.removeAll { $0 == request }
        return plan
    }
}
