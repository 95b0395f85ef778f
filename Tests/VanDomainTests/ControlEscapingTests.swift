import Testing
@testable import VanDomain

/// `escapingControlCharacters`: what a terminal or a log line must never receive raw.
@Suite struct ControlEscapingTests {
    /// Issue 33: a right-to-left override in an address reversed what vanadmin printed after it.
    @Test func bidirectionalControlsAndInvisibleCharactersAreEscaped() {
        #expect("12 Elm St \u{202e}(rear)".escapingControlCharacters == #"12 Elm St \u{202e}(rear)"#)
        // Every format character: the bidirectional controls, the invisible spaces and joiners of
        // words, the soft hyphen, invisible operators, the Mongolian vowel separator, tags.
        for value: UInt32 in [
            0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200B, 0x2060, 0xFEFF,
            0x00AD, 0x2061, 0x2064, 0x180E, 0xE0041, 0xE007F,
        ] {
            let text = "a" + String(Unicode.Scalar(value)!) + "b"
            #expect(text.escapingControlCharacters == "a\\u{\(String(value, radix: 16))}b", "U+\(String(value, radix: 16))")
        }
    }

    /// The joiners some scripts need stay as they are, and so does plain text.
    @Test func joinersAndOrdinaryTextStay() {
        for text in ["Mi\u{200C}nā", "क्\u{200D}ष", "Ann Rivera", "Davenport → SCL", "שלום", "مرحبا"] {
            #expect(text.escapingControlCharacters == text)
        }
    }
}
