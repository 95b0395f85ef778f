import Foundation
import NIOCore
import Testing
import VanServices
import VanDomain
@testable import vand

/// ``JSONBytes`` must write exactly what ``APIJSON`` (JSONEncoder, sorted keys) writes.
@Suite("JSONBytes writes what APIJSON writes")
struct JSONBytesTests {
    static let clock = ServiceTime(timeZone: TimeZone(identifier: "America/New_York")!)

    static func ride(full: Bool, text: String = "Sterling Chemistry Lab") throws -> Ride {
        let at = Date(timeIntervalSince1970: 1_795_000_000.123)
        return Ride(
            id: UUID(), ref: try RideRef(validating: "K7M-3QX"), netID: try NetID("jd123"), kind: full ? .onDemand : .scheduled,
            pickup: RideEndpoint(
                address: full ? "180 \"York\" St\\ \n/ é" : nil, coordinate: try Coordinate(latitude: 41.31633, longitude: -72.92241),
                placeID: 3, placeName: text),
            dropoff: full
                ? RideEndpoint(address: "  ", coordinate: try Coordinate(latitude: 41, longitude: -72.5)) : RideEndpoint(address: "Davenport"),
            requestedAt: at, pickupAt: at.addingTimeInterval(3_600), estimatedDropoffAt: at.addingTimeInterval(4_000),
            needsWheelchair: full, companions: full ? 2 : 0, status: full ? .approved : .pending,
            vanID: full ? 1 : nil, vanName: full ? "Van 1" : nil, note: full ? "bring\tthe ramp \u{1}\u{1f}\u{7f}" : nil,
            reason: full ? "ok" : nil, seriesID: full ? UUID() : nil, createdAt: at, updatedAt: at
        )
    }

    static func bytes(_ write: (inout JSONBytes) -> Void) -> String {
        var json = JSONBytes()
        write(&json)
        return String(buffer: json.buffer)
    }

    @Test func aRideListIsTheSameBytes() throws {
        for full in [true, false] {
            let views = try (0..<3).map { _ in RideView(try Self.ride(full: full), clock: Self.clock) }
            for next in [nil, "123_abc"] as [String?] {
                let list = RideList(rides: views, next: next)
                #expect(Self.bytes { list.write(to: &$0) } == (try APIJSON.string(list)))
            }
            #expect(Self.bytes { views[0].write(to: &$0) } == (try APIJSON.string(views[0])))
        }
        var withETA = RideView(try Self.ride(full: true), clock: Self.clock)
        let at = Date(timeIntervalSince1970: 1_795_003_600)
        withETA.eta = ETAView(
            RiderETA(
                rideID: UUID(), vanID: 1, at: at, now: at.addingTimeInterval(-400), stopsBefore: 2, vanHere: false,
                lateness: Lateness(at: at.addingTimeInterval(61), windowEnd: at)),
            clock: Self.clock)
        #expect(Self.bytes { withETA.write(to: &$0) } == (try APIJSON.string(withETA)))
        #expect(Self.bytes { withETA.write(to: &$0) }.contains(#""eta":{"at":"#))
        let empty = RideList(rides: [], next: nil)
        #expect(Self.bytes { empty.write(to: &$0) } == (try APIJSON.string(empty)))
    }

    @Test(arguments: [0, 1])
    func everyControlCharacterAndSomeUnicodeEscapeAlike(_ half: Int) throws {
        let scalars = (half == 0 ? Array(0...0x40) : Array(0x41...0xFF) + [0x2028, 0x2029, 0xFEFF, 0x1F600])
        let text = String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
        let view = RideView(try Self.ride(full: true, text: text), clock: Self.clock)
        #expect(Self.bytes { view.write(to: &$0) } == (try APIJSON.string(view)))
    }

    @Test(arguments: [0.0, 1.0, -72.92241, 41.31633, 1e-7, 123456789.0, 0.1 + 0.2, -0.0])
    func numbersAreWrittenAlike(_ number: Double) throws {
        struct Box: Encodable { let lat: Double }
        #expect(
            Self.bytes {
                $0.beginObject(); $0.field("lat", number); $0.endObject()
            } == (try APIJSON.string(Box(lat: number))))
    }
}
