import Foundation
import VanTestSupport
import Testing
@testable import VanDomain

@Suite struct CoordinateTests {
    @Test func acceptsTheExtremes() throws {
        _ = try Coordinate(latitude: 90, longitude: 180)
        _ = try Coordinate(latitude: -90, longitude: -180)
    }

    @Test(arguments: [
        (91.0, 0.0, "lat"), (-90.5, 0.0, "lat"), (.nan, 0.0, "lat"), (.infinity, 0.0, "lat"),
        (0.0, 180.01, "lon"), (0.0, -181.0, "lon"), (0.0, .nan, "lon"), (0.0, -.infinity, "lon"),
    ])
    func rejectsOutOfRange(latitude: Double, longitude: Double, field: String) {
        do {
            _ = try Coordinate(latitude: latitude, longitude: longitude)
            Issue.record("expected \(field) to be refused")
        } catch {
            #expect(error.field == field)
        }
    }

    @Test func parisToLondonIsAbout343Kilometers() throws {
        let paris = try Coordinate(latitude: 48.8566, longitude: 2.3522)
        let london = try Coordinate(latitude: 51.5074, longitude: -0.1278)
        let meters = paris.distance(to: london)
        #expect(abs(meters - 343_500) / 343_500 < 0.005)
        #expect(meters == london.distance(to: paris))
    }

    @Test func oneDegreeOfLatitudeIsRadiusTimesPiOver180() throws {
        let a = try Coordinate(latitude: 41, longitude: -72.9)
        let b = try Coordinate(latitude: 42, longitude: -72.9)
        #expect(abs(a.distance(to: b) - 111_195.08) < 0.01)
    }

    @Test func sterlingLibraryToPeabodyMuseum() throws {
        // Sterling Memorial Library and the Peabody Museum, about 820 m apart.
        let sterling = try Coordinate(latitude: 41.3113, longitude: -72.9289)
        let peabody = try Coordinate(latitude: 41.3158, longitude: -72.9211)
        // At campus scale a flat-earth (equirectangular) estimate agrees to millimeters.
        let radians = Double.pi / 180
        let meanLatitude = (sterling.latitude + peabody.latitude) / 2 * radians
        let dy = (peabody.latitude - sterling.latitude) * radians * Coordinate.earthRadius
        let dx = (peabody.longitude - sterling.longitude) * radians * Coordinate.earthRadius * cos(meanLatitude)
        let flat = (dx * dx + dy * dy).squareRoot()
        let meters = sterling.distance(to: peabody)
        #expect(abs(meters - flat) < 0.05)
        #expect(abs(meters - 821.5) < 1)
    }

    @Test func distanceToSelfIsZeroAndAntipodesAreHalfACircumference() throws {
        let here = try Coordinate(latitude: 41.3, longitude: -72.9)
        #expect(here.distance(to: here) == 0)
        let there = try Coordinate(latitude: -41.3, longitude: 107.1)
        #expect(abs(here.distance(to: there) - .pi * Coordinate.earthRadius) < 1)
    }

    @Test func codesAsLatLon() throws {
        let point = try Coordinate(latitude: 41.5, longitude: -72.25)
        #expect(try json(point) == #"{"lat":41.5,"lon":-72.25}"#)
        #expect(try decode(Coordinate.self, #"{"lat":41.5,"lon":-72.25}"#) == point)
        #expect(throws: ValidationError.self) { try decode(Coordinate.self, #"{"lat":95,"lon":0}"#) }
    }
}
