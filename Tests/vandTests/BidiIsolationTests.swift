import Testing
import VanDomain
@testable import vand

/// A rider's text inside a sentence the pages make in Swift.
@Suite struct BidiIsolationTests {
    /// Her own pop (U+2069) would close the isolate early and leave her override (U+202E) open on
    /// the rest of the sentence: run controls are dropped, whatever order they come in.
    @Test func herOwnPopCannotCloseTheIsolateAroundHerText() {
        for hostile in ["x\u{2069}\u{202E}(rear)", "x\u{202E}(rear)", "\u{2066}x\u{2069}\u{2069}\u{202B}(rear)", "x\u{202A}\u{202D}(rear)\u{202C}"] {
            let isolated = BidiIsolation.isolated(hostile)
            let leftOpen = isolated.unicodeScalars.contains { $0.isBidiFormatting }
            #expect(!leftOpen, "\(hostile.unicodeScalars.map(\.value))")
            #expect(isolated.contains("(rear)"))
        }
    }

    /// Text that can still reorder (a right-to-left name, a mark) is isolated, with exactly one
    /// opening and one closing control: its own.
    @Test func rightToLeftTextIsIsolatedOnceAndPlainTextIsLeftAlone() {
        let name = BidiIsolation.isolated("שרה\u{2069} כהן")
        #expect(name == "\u{2068}שרה כהן\u{2069}")
        #expect(BidiIsolation.isolated("a\u{200F}b") == "\u{2068}a\u{200F}b\u{2069}")
        #expect(BidiIsolation.isolated("Ann R.") == "Ann R.")
    }
}
