/// People's text inside the pages' own sentences ("Ann R. is on board at 12 Elm St"), isolated so
/// that it can never reorder the words around it. Templates put a value of its own in `<bdi>`;
/// a sentence made in Swift cannot, so text that could reorder (a bidirectional control, or a
/// right-to-left letter) goes between FIRST STRONG ISOLATE (U+2068) and POP DIRECTIONAL ISOLATE
/// (U+2069), which is what `<bdi>` does. The pop also ends an override the text left open
/// (U+202E "12 Elm St ‮(rear)"). Plain left-to-right text is left as it is.
enum BidiIsolation {
    /// `text` isolated when it holds a bidirectional control or a right-to-left letter.
    static func isolated(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: mayReorder) else { return text }
        return "\u{2068}" + text + "\u{2069}"
    }

    /// Explicit bidirectional controls, and letters of the right-to-left scripts (Hebrew, Arabic,
    /// Syriac, Thaana, N'Ko, Samaritan, Mandaic and their presentation forms).
    static func mayReorder(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }
}
