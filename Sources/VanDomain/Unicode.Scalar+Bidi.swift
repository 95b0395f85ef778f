extension Unicode.Scalar {
    /// An explicit bidirectional control: the Arabic letter mark and the left-to-right and
    /// right-to-left marks (U+061C, U+200E, U+200F), and the embeddings, overrides and isolates
    /// with their pops (U+202A–U+202E, U+2066–U+2069).
    public var isBidiControl: Bool {
        switch value {
        case 0x061C, 0x200E, 0x200F: true
        default: isBidiFormatting
        }
    }

    /// A bidirectional control that opens or closes a run (U+202A–U+202E, U+2066–U+2069): text
    /// holding one unmatched can reorder what follows it, or close an isolate around it.
    public var isBidiFormatting: Bool {
        switch value {
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
