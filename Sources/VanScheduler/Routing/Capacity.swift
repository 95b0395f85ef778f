/// A load or capacity vector with up to four dimensions, e.g. seats and wheelchair positions.
///
/// Dimensions a value does not mention are zero, so a request that needs a
/// wheelchair position never fits a vehicle that declares only seats.
public struct Capacity: Hashable, Sendable, CustomStringConvertible {
    /// The most dimensions a capacity can have.
    public static let maxDimensions = 4

    /// No load at all.
    public static let zero = Capacity(storage: .zero)

    var storage: SIMD4<Int32>

    init(storage: SIMD4<Int32>) {
        self.storage = storage
    }

    /// A capacity with the given amount per dimension (at most `maxDimensions`).
    public init(_ amounts: [Int]) {
        precondition(amounts.count <= Capacity.maxDimensions, "Capacity has at most \(Capacity.maxDimensions) dimensions")
        var storage = SIMD4<Int32>.zero
        for (index, amount) in amounts.enumerated() {
            storage[index] = Int32(amount)
        }
        self.storage = storage
    }

    /// A two-dimensional capacity: seats first, wheelchair positions second.
    public init(seats: Int, wheelchairs: Int = 0) {
        self.init([seats, wheelchairs])
    }

    /// The amount in one dimension (0 ..< `maxDimensions`).
    public subscript(dimension: Int) -> Int {
        Int(storage[dimension])
    }

    /// True when every dimension of `self` is at most the same dimension of `limit`.
    public func fits(within limit: Capacity) -> Bool {
        !any(storage .> limit.storage)
    }

    /// The sum of two loads, dimension by dimension.
    public static func + (lhs: Capacity, rhs: Capacity) -> Capacity {
        Capacity(storage: lhs.storage &+ rhs.storage)
    }

    /// The difference of two loads, dimension by dimension.
    public static func - (lhs: Capacity, rhs: Capacity) -> Capacity {
        Capacity(storage: lhs.storage &- rhs.storage)
    }

    /// The amounts as a list, trailing zero dimensions dropped.
    public var description: String {
        var amounts = (0..<Capacity.maxDimensions).map { Int(storage[$0]) }
        while amounts.count > 1, amounts.last == 0 { amounts.removeLast() }
        return "(" + amounts.map(String.init).joined(separator: ", ") + ")"
    }
}
