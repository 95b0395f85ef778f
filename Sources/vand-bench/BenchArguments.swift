/// The arguments after a benchmark's name (`campus`, `simulate`, `board`), read one option at a
/// time; each read throws the one-line message a misuse gets.
struct BenchArguments {
    private var rest: ArraySlice<String>

    init(_ arguments: [String]) { rest = arguments[...] }

    /// The next option's name, or nil at the end.
    mutating func next() -> String? { rest.popFirst() }

    /// `--seed`'s value: a non-negative integer.
    mutating func seed() throws(CampusBenchError) -> UInt64 {
        guard let value = rest.popFirst().flatMap({ UInt64($0) }) else { throw CampusBenchError("--seed needs a non-negative integer") }
        return value
    }

    /// An integer of at least `minimum` for `option`.
    mutating func count(_ option: String, from minimum: Int = 1) throws(CampusBenchError) -> Int {
        guard let value = rest.popFirst().flatMap({ Int($0) }), value >= minimum else {
            throw CampusBenchError(minimum == 1 ? "\(option) needs a positive integer" : "\(option) needs an integer of at least \(minimum)")
        }
        return value
    }

    /// A number from 0 to `limit` for `option`.
    mutating func share(_ option: String, upTo limit: Double) throws(CampusBenchError) -> Double {
        guard let value = rest.popFirst().flatMap({ Double($0) }), value.isFinite, value >= 0, value <= limit else {
            throw CampusBenchError("\(option) needs a number from 0 to \(limit)")
        }
        return value
    }

    /// `on` or `off` for `option`.
    mutating func onOff(_ option: String) throws(CampusBenchError) -> Bool {
        switch rest.popFirst() {
        case "on": return true
        case "off": return false
        default: throw CampusBenchError("\(option) needs on or off")
        }
    }

    /// Whole minutes within `range` for `option`, or nil for `off`.
    mutating func minutesOrOff(_ option: String, _ range: ClosedRange<Int>) throws(CampusBenchError) -> Int? {
        let text = rest.popFirst()
        if text == "off" { return nil }
        guard let minutes = text.flatMap({ Int($0) }), range.contains(minutes) else {
            throw CampusBenchError("\(option) needs \(range.lowerBound) to \(range.upperBound) minutes, or off")
        }
        return minutes
    }

    /// A path for `option`.
    mutating func path(_ option: String) throws(CampusBenchError) -> String {
        guard let path = rest.popFirst() else { throw CampusBenchError("\(option) needs a path") }
        return path
    }
}
