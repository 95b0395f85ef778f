import Foundation
import Testing
import VanDomain
import VanServices
import VanTestSupport

/// `vanadmin report` counts requests, negotiated times and denials by day and hour (real binary,
/// real database; the requests are made half an hour before the machine's clock, so every
/// refusal has had its 10 minutes).
@Suite("vanadmin report: negotiation and denials (real binary, real database)", .serialized)
struct DenialReportCommandTests {
    func ride(_ w: DispatchWorld, _ rider: String, at time: Date) throws -> NewRide {
        let scl = try Coordinate(latitude: 41.31633, longitude: -72.92241), dav = try Coordinate(latitude: 41.30917, longitude: -72.93139)
        return NewRide(
            id: .timeOrdered(at: time), netID: try NetID(rider), pickup: RideEndpoint(coordinate: scl, placeName: "SCL"),
            dropoff: RideEndpoint(coordinate: dav, placeName: "Davenport"), pickupAt: time)
    }

    @Test func theReportGivesRequestsNegotiatedAndDenialsByDayAndHour() async throws {
        let w = try await DispatchWorld()
        let asked = Date().addingTimeInterval(-1800)
        _ = try await w.book("ann1", w.at(15))
        // Bob is refused at 3 PM and takes 3:30 two minutes later: negotiated, 30 minutes.
        guard case .refused = try await w.booking.book(try ride(w, "bob2", at: w.at(15)), now: asked) else {
            Issue.record("bob was not refused"); return
        }
        guard case .booked = try await w.booking.book(try ride(w, "bob2", at: w.at(15, 30)), now: asked.addingTimeInterval(120)) else {
            Issue.record("bob's 3:30 was not booked"); return
        }
        // Cat is refused at 3 PM twice and books nothing: one denial.
        for minutes in [0.0, 3] {
            guard case .refused = try await w.booking.book(try ride(w, "cat3", at: w.at(15)), now: asked.addingTimeInterval(minutes * 60)) else {
                Issue.record("cat was not refused"); return
            }
        }

        let csv = try w.vanadmin(["report", "--from", w.dayText, "--to", w.dayText, "--denials-csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let lines = csv.stdout.split(separator: "\r\n").map(String.init)
        #expect(
            lines.first
                == "day,hour,requests,negotiated,negotiated_minutes_mean,negotiated_minutes_max,denials,denial_share,rides,standing_rides,standing_share,standing_over_half"
        )
        #expect(lines.contains("\(w.dayText),,3,1,30.0,30,1,0.333,2,0,0.000,false"), "\(csv.stdout)")
        #expect(lines.contains("\(w.dayText),15,3,1,30.0,30,1,0.333,2,0,0.000,false"), "\(csv.stdout)")

        let table = try w.vanadmin(["report", "--from", w.dayText, "--to", w.dayText])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("denials (no ride within an hour)  1"), "\(table.stdout)")
        #expect(table.stdout.contains("rides booked                      2"), "\(table.stdout)")
        #expect(table.stdout.contains("cat3") && table.stdout.contains("SCL → Davenport") && table.stdout.contains("occupied"), "\(table.stdout)")
        #expect(table.stdout.contains("2×"), "she asked twice: \(table.stdout)")

        let json = try w.vanadmin(["report", "--from", w.dayText, "--to", w.dayText, "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let negotiation = report?["negotiation"] as? [String: Any]
        let total = negotiation?["total"] as? [String: Any]
        #expect(report?["denials"] as? Int == 1)
        #expect(total?["requests"] as? Int == 3 && total?["negotiated"] as? Int == 1 && total?["denials"] as? Int == 1, "\(json.stdout)")
        #expect((negotiation?["denials"] as? [[String: Any]])?.first?["reason"] as? String == "occupied")

        let both = try w.vanadmin(["report", "--from", w.dayText, "--to", w.dayText, "--denials-csv", "--csv"])
        #expect(both.status != 0 && both.stderr.contains("choose one of"), "\(both.stderr)")
    }
}
