import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// The same requests through `POST /v1/rides` in one world and through the web app's forms in
/// another, started alike: each row must come to the same ride, the same refusal or the same
/// fields in error, since both feed one ``BookingRequest`` to one ``BookingRules``.
@Suite("The API and the web app book alike")
struct BookingEquivalenceTests {
    /// One request, as a rider would type it into the form.
    struct Row: Sendable {
        enum Expect: Sendable {
            /// Booked: one ride, or a series of this many.
            case booked(Int)
            /// 409: a taken time (`slot-unavailable`) or the rider's own ride in the way (`ride-overlaps`).
            case refused(slug: String)
            /// 422 naming these API fields, shown on these form fields.
            case invalid(api: Set<String>, web: Set<String>)
            /// A series: this many booked, the rest refused for overlapping the rider's own ride.
            case seriesWithOverlap(booked: Int)
        }

        let name: String
        var now = false
        var pickup = "SCL"
        var dropoff = "Davenport"
        var date = "2026-11-30"
        var time = "10:00"
        var arrive = false
        var companions = 0
        var note = ""
        var days: [String] = []
        var until = ""
        let expect: Expect

        var form: [(String, String)] {
            var form = [("pickup", pickup), ("dropoff", dropoff), ("companions", String(companions)), ("note", note)]
            if !now { form += [("date", date), ("time", time), ("time_is", arrive ? "arrive" : "pickup")] }
            if !days.isEmpty || !until.isEmpty { form += [("repeat", "yes")] + days.map { ("repeat_days", $0) } + [("repeat_until", until)] }
            return form
        }

        var json: [String: Any?] {
            var body: [String: Any?] = ["pickup": pickup, "dropoff": dropoff, "companions": companions]
            if !note.isEmpty { body["note"] = note }
            if now {
                body["kind"] = "on_demand"
            } else if !date.isEmpty, !time.isEmpty {
                body[arrive ? "arrive_by" : "pickup_at"] = "\(date)T\(time)"
            }
            if !days.isEmpty || !until.isEmpty { body["repeat"] = ["weekdays": days, "until": until] }
            return body
        }
    }

    /// The world's clock stands at Sunday 2026-11-29 07:00; bob holds Monday 15:00 on the one van.
    static let rows: [Row] = [
        Row(name: "a ride ahead", expect: .booked(1)),
        Row(name: "arrive by", pickup: "Davenport", dropoff: "SCL", time: "12:00", arrive: true, expect: .booked(1)),
        Row(name: "ride now", now: true, pickup: "SSS", dropoff: "Bass", expect: .booked(1)),
        Row(name: "a taken time", time: "15:00", expect: .refused(slug: "slot-unavailable")),
        Row(name: "inside the rider's own ride", pickup: "Bass", dropoff: "SSS", time: "10:05", expect: .refused(slug: "ride-overlaps")),
        Row(
            name: "unknown place, too many companions", dropoff: "Nowhere Hall", time: "11:00", companions: 5,
            expect: .invalid(api: ["dropoff.place", "companions"], web: ["dropoff", "companions"])),
        Row(name: "in the past", date: "2026-11-28", expect: .invalid(api: ["pickup_at"], web: ["time"])),
        Row(name: "beyond the horizon", date: "2026-12-20", expect: .invalid(api: ["pickup_at"], web: ["date"])),
        Row(name: "no time", time: "", expect: .invalid(api: ["pickup_at"], web: ["time"])),
        Row(name: "no pick-up place", pickup: "", time: "11:00", expect: .invalid(api: ["pickup"], web: ["pickup"])),
        Row(
            name: "to where it starts", pickup: "SCL", dropoff: "Sterling Chemistry Lab", time: "11:00",
            expect: .invalid(api: ["dropoff"], web: ["dropoff"])),
        Row(name: "a long note", time: "11:00", note: String(repeating: "n", count: 501), expect: .invalid(api: ["note"], web: ["note"])),
        Row(name: "a weekly series", time: "17:00", days: ["mon", "wed"], until: "2026-12-09", expect: .booked(4)),
        Row(
            name: "a series too far", time: "18:00", days: ["mon"], until: "2027-06-30",
            expect: .invalid(api: ["repeat.until"], web: ["repeat_until"])),
        Row(
            name: "no such weekday", time: "18:00", days: ["someday"], until: "2026-12-09",
            expect: .invalid(api: ["repeat.weekdays"], web: ["repeat_days"])),
        Row(name: "a series over the rider's own ride", time: "10:10", days: ["mon"], until: "2026-12-07", expect: .seriesWithOverlap(booked: 1)),
    ]

    /// A ride's stored request and plan, comparable across two databases loaded alike.
    static func stored(_ id: UUID, _ w: BookingWorld) async throws -> String {
        try await w.f.database.pool.withConnection { conn in
            try conn.query(
                """
                SELECT concat_ws('|', kind, promise, window_start, window_end, pickup_at, estimated_dropoff_at, pickup_place_id, dropoff_place_id,
                                 companions, note, needs_wheelchair, status, van_id, series_id IS NOT NULL)
                FROM rides WHERE id = \(id)
                """
            ).first!.decode(String.self, at: 0)
        }
    }

    /// Every stored ride of a series of ann's, in time order.
    static func series(_ w: BookingWorld) async throws -> [String] {
        try await w.f.database.pool.withConnection { conn in
            try conn.query(
                """
                SELECT concat_ws('|', pickup_at, window_start, companions, status) FROM rides
                WHERE net_id = 'ann1' AND series_id IS NOT NULL AND ride_holds_van(status) ORDER BY pickup_at
                """
            ).map { try $0.decode(String.self, at: 0) }
        }
    }

    /// A sentence with its ride reference (drawn at random per database) and HTML escapes taken out.
    static func plain(_ text: String) -> String {
        text.replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
            .replacingOccurrences(of: #"[0-9A-Z]{3}-[0-9A-Z]{3}"#, with: "REF", options: .regularExpression)
    }

    /// The form fields the web page marks invalid.
    static func invalidFields(_ body: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"<p class="error" id="([a-z_]+)-error">"#)
        return Set(pattern.matches(in: body, range: NSRange(body.startIndex..., in: body)).map { String(body[Range($0.range(at: 1), in: body)!]) })
    }

    @Test func eachRowComesToTheSameAnswerThroughTheAPIAndTheWeb() async throws {
        let api = try await BookingWorld()
        let web = try await BookingWorld()
        try await api.f.application().test(.router) { apiClient in
            try await web.f.application().test(.router) { webClient in
                for client in [apiClient, webClient] as [any TestClientProtocol] {
                    let bob = try await client.token("bob2", "correct horse battery")
                    #expect(try await client.book(bob, RideRoutesTests.sclToDavenport).status == .created)
                }
                let ann = try await apiClient.token("ann1", "correct horse battery")
                var jar = WebJar()
                _ = try await webClient.webSignIn("ann1", jar: &jar)
                let csrf = try #require(try await webClient.web("/book", jar: &jar).csrf)
                var firstRide: (api: String, web: String)?
                for row in Self.rows {
                    let a = try await apiClient.book(ann, row.json)
                    let w = try await webClient.web(row.now ? "/ride-now" : "/book", form: [("csrf", csrf)] + row.form, jar: &jar)
                    switch row.expect {
                    case .booked(1):
                        #expect(a.status == .created, "\(row.name): \(a.body)")
                        #expect(w.status == .seeOther, "\(row.name): \(w.body)")
                        let apiID = try #require((a.body["id"] as? String).flatMap(UUID.init(uuidString:)), "\(row.name)")
                        let location = try #require(w.headers[.location], "\(row.name)")
                        let webID = try #require(UUID(uuidString: String(location.dropFirst("/rides/".count).prefix(36))), "\(row.name)")
                        #expect(try await Self.stored(apiID, api) == (try await Self.stored(webID, web)), "\(row.name)")
                        if firstRide == nil { firstRide = (apiID.uuidString.lowercased(), webID.uuidString.lowercased()) }
                    case .booked(let count):
                        #expect(a.status == .created && (a.body["booked"] as? [Any])?.count == count, "\(row.name): \(a.body)")
                        #expect(w.status == .seeOther && w.headers[.location] == "/rides?done=series&n=\(count)", "\(row.name)")
                        #expect(try await Self.series(api) == (try await Self.series(web)), "\(row.name)")
                    case .refused(let slug):
                        #expect(a.status == .conflict && w.status == .conflict, "\(row.name): \(a.status) \(w.status)")
                        #expect(a.body["type"] as? String == "/problems/\(slug)", "\(row.name)")
                        let detail = try #require(a.body["detail"] as? String)
                        #expect(Self.plain(w.body).contains(Self.plain(detail)), "\(row.name): \(detail)")
                        if slug == "ride-overlaps", let firstRide {
                            // Both link the ride in the way; the web keeps what was typed, the message at the time field.
                            #expect(a.body["ride"] as? String == "/v1/rides/\(firstRide.api)")
                            #expect(a.body["reason"] as? String == BookingOutcome.overlapsCode)
                            #expect(w.body.contains(#"<a href="/rides/\#(firstRide.web)">See that ride</a>"#))
                            #expect(Self.invalidFields(w.body) == ["time"] && w.body.contains(#"value="10:05""#) && w.body.contains(#"value="Bass""#))
                        }
                    case .invalid(let apiFields, let webFields):
                        #expect(a.status == .unprocessableContent && w.status == .unprocessableContent, "\(row.name): \(a.status) \(w.status)")
                        let fields = Set((a.body["fields"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String })
                        #expect(fields == apiFields, "\(row.name): \(a.body)")
                        #expect(Self.invalidFields(w.body) == webFields, "\(row.name)")
                    case .seriesWithOverlap(let count):
                        #expect(a.status == .created && (a.body["booked"] as? [Any])?.count == count, "\(row.name): \(a.body)")
                        let conflict = try #require((a.body["conflicts"] as? [[String: Any]])?.first, "\(row.name)")
                        #expect(conflict["reason"] as? String == BookingOutcome.overlapsCode)
                        #expect(conflict["ride"] as? String == firstRide.map { "/v1/rides/\($0.api)" })
                        #expect(w.status == .ok && Self.plain(w.body).contains(Self.plain(conflict["detail"] as? String ?? "?")), "\(row.name)")
                        #expect(w.body.contains(#"<a href="/rides/\#(firstRide?.web ?? "?")">See that ride</a>"#))
                        #expect(try await Self.series(api) == (try await Self.series(web)), "\(row.name)")
                    }
                }
                #expect(try await api.rideCount() == (try await web.rideCount()))
            }
        }
        await api.f.close()
        await web.f.close()
    }
}
