import Foundation
import Testing
@testable import VanDomain

/// `hasVisibleASCIIEnds` only ever says yes where Foundation's trimming would change nothing.
@Suite struct StringTrimmingTests {
    @Test func visibleASCIIEndsMeanTrimmingChangesNothing() {
        let pieces = [
            "a", "Z", "~", "!", " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{2003}", "\u{3000}", "é", "🚐", "x y", "\u{7F}", "",
        ]
        var generator = SeededGenerator(seed: 3)
        var yes = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            guard text.hasVisibleASCIIEnds else { continue }
            yes += 1
            #expect(text.trimmingCharacters(in: .whitespaces) == text, "\(text.debugDescription)")
            #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == text, "\(text.debugDescription)")
        }
        #expect(yes > 1_000)
        #expect(!" a".hasVisibleASCIIEnds && !"a\n".hasVisibleASCIIEnds && !"".hasVisibleASCIIEnds && !"é".hasVisibleASCIIEnds)
    }
}
