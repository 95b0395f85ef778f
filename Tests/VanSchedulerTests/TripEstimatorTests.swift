import Foundation
import VanTestSupport
import Testing
@testable import VanScheduler
import VanDomain

@Suite struct TripEstimatorTests {
    let estimator = TripEstimator()
    let a = Fixture.sss
    var oneKilometer: Coordinate { Fixture.north(of: a, meters: 1_000) }

    @Test func oneKilometerAmbulatory() {
        // 2 min + 1 km × 1.3 ÷ 20 km/h (3.9 min) + 1 min = 6.9 min.
        #expect(estimator.tripDuration(from: a, to: oneKilometer, wheelchair: false) == 414)
    }

    @Test func oneKilometerWheelchair() {
        // 5 min + 3.9 min + 3 min = 11.9 min.
        #expect(estimator.tripDuration(from: a, to: oneKilometer, wheelchair: true) == 714)
    }

    @Test func deadheadIsDriveOnly() {
        #expect(estimator.deadhead(from: a, to: oneKilometer) == 234)
        #expect(estimator.deadhead(from: a, to: a) == 0)
    }

    @Test func roundsUpToWholeSeconds() {
        // 10 m × 1.3 ÷ (20 km/h) = 2.34 s → 3 s.
        #expect(estimator.deadhead(from: a, to: Fixture.north(of: a, meters: 10)) == 3)
        #expect(TripEstimator.wholeSeconds(414.000_000_000_1) == 414)
        #expect(TripEstimator.wholeSeconds(414.01) == 415)
    }

    @Test func unknownEndsUseTheConfiguredFigures() {
        #expect(estimator.tripDuration(from: nil, to: oneKilometer, wheelchair: false) == 18 * 60)
        #expect(estimator.tripDuration(from: a, to: nil, wheelchair: true) == 23 * 60)
        #expect(estimator.tripDuration(from: a as Coordinate?, to: oneKilometer as Coordinate?, wheelchair: false) == 414)
        #expect(estimator.deadhead(from: nil, to: a) == 600)
        #expect(estimator.deadhead(from: a as Coordinate?, to: oneKilometer as Coordinate?) == 234)
    }

    @Test func everyFigureIsConfigurable() {
        var custom = TripEstimator()
        custom.boarding = 0
        custom.alighting = 0
        custom.detourFactor = 1
        custom.averageSpeedKmh = 36  // 10 m/s
        custom.unknownLegDuration = 60
        custom.unknownDeadhead = 30
        #expect(custom.tripDuration(from: a, to: oneKilometer, wheelchair: false) == 100)
        #expect(custom.tripDuration(from: nil, to: nil, wheelchair: false) == 60)
        #expect(custom.deadhead(from: nil, to: nil) == 30)
    }

    @Test func decodesPartialConfigWithDefaultsAndValidates() throws {
        let decoded = try decode(TripEstimator.self, #"{"averageSpeedKmh": 30}"#)
        var expected = TripEstimator()
        expected.averageSpeedKmh = 30
        #expect(decoded == expected)
        #expect(try decode(TripEstimator.self, json(TripEstimator())) == TripEstimator())
        #expect(throws: ValidationError.self) { try decode(TripEstimator.self, #"{"averageSpeedKmh": 0}"#) }
        #expect(throws: ValidationError.self) { try decode(TripEstimator.self, #"{"boarding": -1}"#) }
    }

    @Test func validateNamesTheBadFigure() {
        var bad = TripEstimator()
        bad.detourFactor = 0.5
        #expect(throws: ValidationError.self) { try bad.validate() }
        do {
            try bad.validate()
        } catch {
            #expect(error.field == "detour_factor")
        }
    }
}
