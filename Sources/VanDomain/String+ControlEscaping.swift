extension String {
    /// The text as one safe line: a backslash before every backslash, `\n`, `\r` and `\t` for
    /// those characters, and `\u{…}` for every other control character and line separator
    /// (C0, DEL, C1, U+2028, U+2029). Nothing in the result can end a line, move a terminal's
    /// cursor, colour it or retitle its window. The log and `vanadmin` print people's text
    /// through this one rule.
    public var escapingControlCharacters: String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\\" || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
        }
        guard unicodeScalars.contains(where: needsEscape) else { return self }
        var result = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            guard needsEscape(scalar) else { result.append(scalar); continue }
            switch scalar {
            case "\\": result.append(contentsOf: #"\\"#.unicodeScalars)
            case "\n": result.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": result.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": result.append(contentsOf: #"\t"#.unicodeScalars)
            default: result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            }
        }
        return String(result)
    }
}
