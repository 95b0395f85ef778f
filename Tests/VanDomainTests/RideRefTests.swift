import Foundation
import Testing
import VanDomain

@Suite struct RideRefTests {
    /// However a dispatcher types what the rider said, it is one reference.
    @Test(arguments: ["K7M-3QX", "k7m-3qx", "K7M3QX", " k7m 3qx ", "k7m--3qx"])
    func readsWhatPeopleType(_ typed: String) throws {
        #expect(try RideRef(validating: typed).rawValue == "K7M-3QX")
    }

    /// Crockford's reading of the letters it leaves out: I and L are one, O is zero.
    @Test func readsLookAlikesAsDigits() throws {
        #expect(try RideRef(validating: "ilo-abc").rawValue == "110-ABC")
    }

    @Test(arguments: ["K7M-3Q", "K7M-3QXX", "K7U-3QX", "K7M_3QX", "", "01a2088f"])
    func refusesWhatIsNotAReference(_ typed: String) {
        #expect(throws: ValidationError.self) { try RideRef(validating: typed) }
    }

    /// The alphabet is the 32 symbols of Crockford base 32, nothing that sounds or looks alike.
    @Test func theAlphabetHasNoLookAlikes() {
        #expect(RideRef.alphabet.count == 32)
        #expect(Set(RideRef.alphabet).count == 32)
        for letter in "ILOU" { #expect(!RideRef.alphabet.contains(letter)) }
    }

    /// A stored reference (already canonical) reads as itself, as the general reading would.
    @Test func canonicalReferencesReadAsThemselves() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let symbols = (0..<6).map { _ in RideRef.alphabet[Int.random(in: 0..<32, using: &generator)] }
            let canonical = String(symbols[0..<3]) + "-" + String(symbols[3..<6])
            #expect(try RideRef(validating: canonical).rawValue == canonical)
            #expect(try RideRef(validating: canonical.lowercased()).rawValue == canonical)
        }
        #expect(throws: ValidationError.self) { try RideRef(validating: "K7M-3QU") }
        #expect(try RideRef(validating: "K7M-3Q1").rawValue == "K7M-3Q1")
    }

    /// A screen reader says it one symbol at a time, in two groups.
    @Test func isSpelledForScreenReaders() throws {
        #expect(try RideRef(validating: "K7M-3QX").spelled == "K 7 M, 3 Q X")
    }

    @Test func encodesAsItsText() throws {
        let data = try JSONEncoder().encode(try RideRef(validating: "k7m3qx"))
        #expect(String(decoding: data, as: UTF8.self) == "\"K7M-3QX\"")
    }
}
