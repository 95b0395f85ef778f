extension String {
    /// The text as one safe line: a backslash before every backslash, `\n`, `\r` and `\t` for
    /// those characters, and `\u{…}` for every other control character and line separator
    /// (C0, DEL, C1, U+2028, U+2029), and for every format character (Unicode's category Cf: the
    /// bidirectional controls, zero-width spaces, the byte-order mark, soft hyphens, invisible
    /// operators, tags). Nothing in the result can end a line, move a terminal's cursor, colour it,
    /// retitle its window, reverse the text printed after it or hide in it. The joiners U+200C and
    /// U+200D stay: names in Persian or Hindi need them. The log and `vanadmin` print people's text
    /// through this one rule.
    public var escapingControlCharacters: String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x5C, 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: true  // backslash, C0, DEL, C1, line separators
            case 0x200C, 0x200D: false  // the joiners
            default: scalar.properties.generalCategory == .format
            }
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
