extension String {
    /// The text as one safe line: a backslash before every backslash, `\n`, `\r` and `\t` for
    /// those characters, and `\u{…}` for every other control character and line separator
    /// (C0, DEL, C1, U+2028, U+2029), for every bidirectional control (U+061C, U+200E, U+200F,
    /// U+202A–U+202E, U+2066–U+2069) and for the invisible U+200B, U+2060 and U+FEFF. Nothing in
    /// the result can end a line, move a terminal's cursor, colour it, retitle its window, reverse
    /// the text printed after it or hide in it. The joiners U+200C and U+200D stay: names in
    /// Persian or Hindi need them. The log and `vanadmin` print people's text through this one rule.
    public var escapingControlCharacters: String {
        func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x5C, 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029: true  // backslash, C0, DEL, C1, line separators
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional controls
            case 0x200B, 0x2060, 0xFEFF: true  // zero-width space, word joiner, byte-order mark
            default: false
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
