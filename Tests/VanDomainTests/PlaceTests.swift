import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

@Suite struct PlaceTests {
    let sss = Place(
        id: 1,
        name: "Sheffield-Sterling-Strathcona Hall",
        aliases: ["SSS", "Sheff"],
        coordinate: try! Coordinate(latitude: 41.3110, longitude: -72.9254)
    )

    @Test(arguments: ["sss", "SSS", "sheffield", "Sheff", "sterling", "strathcona hall", "  hall "])
    func matchesNameOrAliasIgnoringCase(_ query: String) {
        #expect(sss.matches(query))
    }

    @Test(arguments: ["davenport", "SSSS", "hall sss"])
    func doesNotMatchOtherText(_ query: String) {
        #expect(!sss.matches(query))
    }

    @Test func blankQueryMatchesEverything() {
        #expect(sss.matches(""))
        #expect(sss.matches("   "))
    }

    @Test func ranksExactThenPrefixThenContains() {
        #expect(sss.matchQuality("sss") == .exact)
        #expect(sss.matchQuality("shef") == .prefix)
        #expect(sss.matchQuality("strath") == .contains)
        #expect(sss.matchQuality("nope") == nil)
        #expect(Place.MatchQuality.exact < .prefix && Place.MatchQuality.prefix < .contains)
    }

    @Test func ignoresDiacritics() throws {
        let cafe = Place(name: "Café Med", coordinate: try Coordinate(latitude: 41.3, longitude: -72.9))
        #expect(cafe.matches("cafe"))
    }

    @Test func roundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(sss)
        #expect(try JSONDecoder().decode(Place.self, from: data) == sss)
    }
}
