import VanDomain

/// A line for the dispatcher's terminal whose interpolated values are escaped
/// (``Swift/String/escapingControlCharacters``): the literal parts are ours and may hold `\n`,
/// but a note, an address, a name or a reason someone typed can never add a line, colour
/// the terminal or retitle its window.
///
/// `say("approved \(ride.ref) \(note)")`.
struct TerminalLine: ExpressibleByStringInterpolation {
    /// The text to print.
    let text: String

    init(stringLiteral value: String) { text = value }

    init(stringInterpolation: Interpolation) { text = stringInterpolation.text }

    /// Appends literals as they are and every value escaped.
    struct Interpolation: StringInterpolationProtocol {
        var text = ""
        init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + 16 * interpolationCount) }
        mutating func appendLiteral(_ literal: String) { text += literal }
        mutating func appendInterpolation(_ value: some CustomStringConvertible) { text += value.description.escapingControlCharacters }
        mutating func appendInterpolation(_ value: String) { text += value.escapingControlCharacters }
    }
}

/// Prints one line to stdout with every interpolated value escaped.
func say(_ line: TerminalLine) {
    print(line.text)
}
