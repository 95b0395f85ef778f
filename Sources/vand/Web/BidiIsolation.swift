import VanDomain

/// People's text inside the pages' own sentences ("Ann R. is on board at 12 Elm St"), isolated so
/// that it can never reorder the words around it. Templates put a value of its own in `<bdi>`
/// (the browser isolates at the element, whatever the text holds); a sentence made in Swift cannot,
/// so its text loses every control that opens or closes a run (an override, or a pop that would
/// close the isolate early: "x\u{2069}\u{202E}(rear)"), and text that could still reorder (a mark,
/// or a right-to-left letter) goes between FIRST STRONG ISOLATE (U+2068) and POP DIRECTIONAL
/// ISOLATE (U+2069), which is what `<bdi>` does. Plain left-to-right text is left as it is.
enum BidiIsolation {
    /// `text` without its run controls, isolated when it holds a mark or a right-to-left letter.
    static func isolated(_ text: String) -> String {
        var text = text
        if text.unicodeScalars.contains(where: \.isBidiFormatting) {
            text = String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.isBidiFormatting }))
        }
        guard text.unicodeScalars.contains(where: mayReorder) else { return text }
        return "\u{2068}" + text + "\u{2069}"
    }

    /// Bidirectional controls, and letters of the right-to-left scripts (Hebrew, Arabic, Syriac,
    /// Thaana, N'Ko, Samaritan, Mandaic and their presentation forms).
    static func mayReorder(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isBidiControl { return true }
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }
}
