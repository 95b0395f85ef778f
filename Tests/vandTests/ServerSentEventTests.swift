import Foundation
import Testing
import VanDomain
import VanServices
@testable import vand

/// The one writer of vand's event streams (``ServerSentEvent``): what the rider's
/// `/v1/notifications/stream` and the console's `/dispatch/stream` send, read back as a browser's
/// `EventSource` reads it, and decoded as JSON (never compared byte for byte: keys are sorted).
@Suite("Server-sent events: one writer for both streams")
struct ServerSentEventTests {
    /// One dispatched event as the format's reader sees it.
    struct Received: Equatable {
        var event = "message"
        var id: String?
        var retry: String?
        var data = ""
        /// How many `data:` lines carried it.
        var dataLines = 0
    }

    /// Reads `text` as the HTML standard's event-stream parser does: lines end at CRLF, LF or CR;
    /// a blank line dispatches; `:` starts a comment; a field's value loses one leading space;
    /// `data:` lines join with "\n". Blocks without data dispatch nothing (a retry, a comment).
    static func read(_ text: String) -> [Received] {
        var received: [Received] = []
        var current = Received()
        var dataParts: [String] = []
        var line = ""
        func endLine() {
            defer { line = "" }
            if line.isEmpty {
                if !dataParts.isEmpty {
                    current.data = dataParts.joined(separator: "\n")
                    received.append(current)
                }
                current = Received()
                dataParts = []
                return
            }
            if line.hasPrefix(":") { return }
            let name = line.prefix { $0 != ":" }
            var value = line.dropFirst(name.count).dropFirst()
            if value.hasPrefix(" ") { value = value.dropFirst() }
            switch name {
            case "event": current.event = String(value)
            case "id": current.id = String(value)
            case "retry": current.retry = String(value)
            case "data": dataParts.append(String(value)); current.dataLines += 1
            default: break
            }
        }
        for character in text {
            if character == "\n" || character == "\r" || character == "\r\n" { endLine() } else { line.append(character) }
        }
        return received
    }

    /// `data` as a JSON object.
    static func object(_ data: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any], "not a JSON object: \(data)")
    }

    /// `data` decoded as `T`, after its keys were checked to be exactly `keys` (a null is a key written out).
    static func decode<T: Decodable>(_ type: T.Type, _ data: String, keys: Set<String>) throws -> T {
        let found = Set(try object(data).keys)
        #expect(found == keys, "the data's keys are \(found.sorted()), not \(keys.sorted())")
        return try JSONDecoder().decode(T.self, from: Data(data.utf8))
    }

    struct Closed: Decodable, Equatable { let reason: String }
    struct Ride: Decodable, Equatable { let ride: String; let kind: String; let van: Int64?; let day: String }
    struct Van: Decodable, Equatable { let van: Int64 }
    struct Alert: Decodable, Equatable { let kind: String }

    static let clock = ServiceTime(timeZone: TimeZone(identifier: "America/New_York")!)
    static let rideID = UUID(uuidString: "01890000-0000-7000-8000-0000000000AB")!
    /// What a rider (or a dispatcher typing for her) may put in a note that comes back in a message.
    static let awkward = "Line one\nLine \"two\"\r\nthree\rfour \\ </script> \u{2028} 🚐 done"

    @Test func aRidersTextWithLineBreaksAndQuotesIsOneDataLineOfValidJSON() throws {
        let view = NotificationView(
            id: 42, kind: "approved", ride_id: Self.rideID.uuidString.lowercased(),
            message: Self.awkward, created_at: "2026-11-30T15:00:00-05:00")
        let text = try view.serverSentEvent().text
        #expect(text.hasSuffix("\n\n"))
        #expect(!text.contains("\r"), "a raw carriage return would end the line for a reader")
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("data:") }.count == 1)
        let events = Self.read(text)
        try #require(events.count == 1)
        #expect(events[0].event == "notification" && events[0].id == "42" && events[0].dataLines == 1)
        struct Shown: Decodable, Equatable { let id: Int64; let kind: String; let ride_id: String; let message: String; let created_at: String }
        let shown = try JSONDecoder().decode(Shown.self, from: Data(events[0].data.utf8))
        #expect(
            shown
                == Shown(
                    id: 42, kind: "approved", ride_id: "01890000-0000-7000-8000-0000000000ab", message: Self.awkward,
                    created_at: "2026-11-30T15:00:00-05:00"))
    }

    @Test func anETAEventHasNoIDAndWritesANullETAOut() throws {
        let at = Date(timeIntervalSince1970: 1_796_068_800)  // 2026-11-30 20:00 UTC, 3:00 PM in New York
        let eta = RiderETA(
            rideID: Self.rideID, vanID: 3, at: at, now: at.addingTimeInterval(-360), stopsBefore: 2, vanHere: false,
            lateness: Lateness(at: at.addingTimeInterval(120), windowEnd: at))
        let shown = Self.read(try ETAEventView(ride_id: "r1", eta: ETAView(eta, clock: Self.clock)).serverSentEvent().text)
        try #require(shown.count == 1)
        #expect(shown[0].event == "eta" && shown[0].id == nil)
        let object = try Self.object(shown[0].data)
        #expect(Set(object.keys) == ["ride_id", "eta"] && object["ride_id"] as? String == "r1")
        let fields = try #require(object["eta"] as? [String: Any])
        #expect(Set(fields.keys) == ["at", "minutes", "stops_before", "van_here", "late_minutes", "message"])
        #expect(fields["at"] as? String == "2026-11-30T15:00:00-05:00")
        #expect(fields["minutes"] as? Int == 6 && fields["stops_before"] as? Int == 2 && fields["late_minutes"] as? Int == 2)
        #expect(fields["van_here"] as? Bool == false)
        #expect(fields["message"] as? String == eta.sentence)

        let gone = Self.read(try ETAEventView(ride_id: "r1", eta: nil).serverSentEvent().text)
        try #require(gone.count == 1)
        let goneObject = try Self.object(gone[0].data)
        #expect(Set(goneObject.keys) == ["ride_id", "eta"], "a nil ETA must be written out as null, not left out")
        #expect(goneObject["eta"] is NSNull)
    }

    @Test func aStreamsLastEventSaysWhyAndOnePastTheCapAsksForAMinute() throws {
        let ended = Self.read(try StreamClosedView.event(.sessionEnded).text)
        try #require(ended.count == 1)
        #expect(ended[0].event == "closed" && ended[0].retry == nil && ended[0].id == nil)
        #expect(try Self.decode(Closed.self, ended[0].data, keys: ["reason"]) == Closed(reason: "session_ended"))
        let replaced = Self.read(try StreamClosedView.event(.replaced).text)
        try #require(replaced.count == 1)
        #expect(replaced[0].event == "closed" && replaced[0].retry == "60000")
        #expect(try Self.decode(Closed.self, replaced[0].data, keys: ["reason"]) == Closed(reason: "too_many_streams"))
    }

    @Test func theConsolesEventsDecodeToTheDocumentedShape() throws {
        let day = try LocalDate("2026-11-30")
        for kind in RideEventKind.allCases {
            let events = Self.read(try WebDispatchStream.event(.ride(id: Self.rideID, kind: kind.rawValue, van: 2, day: day)).text)
            try #require(events.count == 1)
            #expect(events[0].event == "ride" && events[0].id == nil)
            #expect(
                try Self.decode(Ride.self, events[0].data, keys: ["ride", "kind", "van", "day"])
                    == Ride(ride: "01890000-0000-7000-8000-0000000000ab", kind: kind.rawValue, van: 2, day: "2026-11-30"))
        }
        // A ride on no van says so with null; a kind this build does not know is "updated", never echoed.
        let noVan = try Self.object(Self.read(try WebDispatchStream.event(.ride(id: Self.rideID, kind: "created", van: nil, day: day)).text)[0].data)
        #expect(Set(noVan.keys) == ["ride", "kind", "van", "day"] && noVan["van"] is NSNull)
        let odd = try Self.object(
            Self.read(try WebDispatchStream.event(.ride(id: Self.rideID, kind: "x\"}\ndata: {", van: 1, day: day)).text)[0].data)
        #expect(odd["kind"] as? String == "updated")

        let van = Self.read(try WebDispatchStream.event(.van(3)).text)
        #expect(van.count == 1 && van.first?.event == "van")
        #expect(try Self.decode(Van.self, try #require(van.first).data, keys: ["van"]) == Van(van: 3))

        for kind in ["late", "no_show", "parked", "pending", "unstaffed"] {
            let alert = Self.read(try WebDispatchStream.event(.alert(kind)).text)
            #expect(alert.count == 1 && alert.first?.event == "alert")
            #expect(try Self.decode(Alert.self, try #require(alert.first).data, keys: ["kind"]) == Alert(kind: kind))
        }
        let unknown = Self.read(try WebDispatchStream.event(.alert("something\nnew")).text)
        #expect(try Self.decode(Alert.self, try #require(unknown.first).data, keys: ["kind"]) == Alert(kind: "pending"))
    }

    @Test func aFieldsValueNeverBreaksOutOfItsLine() {
        #expect(ServerSentEvent.field("data", "a\nb\r\nc\rd") == "data: a\ndata: b\ndata: c\ndata: d\n")
        #expect(ServerSentEvent.field("data", "{}") == "data: {}\n")
        // Read back, the lines join with "\n" as the format says; nothing dispatches early.
        let events = Self.read(ServerSentEvent.field("event", "x") + ServerSentEvent.field("data", "a\n\nb") + "\n")
        #expect(events == [Received(event: "x", data: "a\n\nb", dataLines: 3)])
        // A comment with a line break stays a comment; the retry block is the format's own.
        #expect(ServerSentEvent.comment("keep\nalive").text == ": keep\n: alive\n\n")
        #expect(ServerSentEvent.comment("keep-alive").text == ": keep-alive\n\n")
        #expect(ServerSentEvent.retry(.seconds(3)).text == "retry: 3000\n\n")
        #expect(Self.read(ServerSentEvent.comment("keep\nalive").text + ServerSentEvent.retry(.milliseconds(1500)).text).isEmpty)
    }
}
