import Foundation

/// The order a van drives its run's stops, in one place: the driver's run, the ETAs, the day
/// board, the map and `vanadmin vans status` all sort by it, so "the next stop" is one stop.
///
/// - A stop the van arrived at and has not finished comes first (it is there), by arrival.
/// - Then by planned time; a drop-off's planned time is never before its own pickup's.
/// - At the same time, a drop-off before a pickup (the scheduler's order: a seat frees first).
/// - Then by ride id, byte for byte (PostgreSQL's `uuid` order), so the order never depends on
///   how rows were read.
public enum RunOrder {
    /// What orders one stop.
    public struct Key: Sendable, Hashable {
        /// The ride.
        public var rideID: UUID
        /// Pickup or drop-off.
        public var kind: StopKind
        /// The planned time (a drop-off's: ``plannedDropoff(pickupAt:dropoffAt:)``).
        public var plannedAt: Date
        /// The "arrived" tap of a stop not finished; nil otherwise (or where the order is the plan's alone).
        public var arrivedAt: Date?

        /// A stop's key; see the properties.
        public init(rideID: UUID, kind: StopKind, plannedAt: Date, arrivedAt: Date? = nil) {
            self.rideID = rideID
            self.kind = kind
            self.plannedAt = plannedAt
            self.arrivedAt = arrivedAt
        }
    }

    /// Whether `a` is driven before `b`.
    public static func precedes(_ a: Key, _ b: Key) -> Bool {
        switch (a.arrivedAt, b.arrivedAt) {
        case let (x?, y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: break
        }
        if a.plannedAt != b.plannedAt { return a.plannedAt < b.plannedAt }
        if a.kind != b.kind { return a.kind == .dropoff }
        return bytesPrecede(a.rideID, b.rideID)
    }

    /// A drop-off's planned time as the run orders it: never before the ride's planned pickup.
    public static func plannedDropoff(pickupAt: Date, dropoffAt: Date) -> Date {
        max(pickupAt, dropoffAt)
    }

    /// `a` before `b` byte for byte, as PostgreSQL orders `uuid` (and as their uppercase strings sort).
    public static func bytesPrecede(_ a: UUID, _ b: UUID) -> Bool {
        withUnsafeBytes(of: a.uuid) { x in
            withUnsafeBytes(of: b.uuid) { y in
                for index in 0..<16 where x[index] != y[index] { return x[index] < y[index] }
                return false
            }
        }
    }
}
