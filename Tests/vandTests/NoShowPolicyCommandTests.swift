import Foundation
import Testing
import VanDomain
import VanServices
import VanTestSupport
import VanPostgres

/// The office's side of the no-show policy with the real `vanadmin` binary on a real database
/// (the machine's clock; the trips are placed a few days before it): the policy read aloud and
/// changed, a rider's record, her appeal by phone, the decision, an excusal, the phone booking
/// refused while she is suspended and booked over it for a medical trip, and the report.
@Suite("vanadmin policy, noshows, appeals and the suspension (real binary, real database)", .serialized)
struct NoShowPolicyCommandTests {
    @Test func thePolicyIsReadAloudAndABadValueChangesNothing() async throws {
        let w = try await DispatchWorld()
        let shown = try w.vanadmin(["policy", "show"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("at least 3 counted no-shows in 30 days, and at least 10 % of the trips"), "\(shown.stdout)")
        let bad = try w.vanadmin(["policy", "set", "--no-shows", "0", "--suspend-days", "7,x"])
        #expect(bad.status != 0 && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        let badRange = try w.vanadmin(["policy", "set", "--no-shows", "0", "--as", "dana"])
        #expect(badRange.status != 0 && badRange.stderr.contains("--no-shows must be 1 to 100"), "\(badRange.stderr)")
        #expect(try await w.value("SELECT count(*) FROM settings WHERE key = 'no_show_policy'", as: Int.self) == 0)
        let set = try w.vanadmin(["policy", "set", "--no-shows", "4", "--late-cancels", "ignore", "--suspend-days", "5,10", "--as", "dana"])
        #expect(set.status == 0, "\(set.stderr)")
        let json = try w.vanadmin(["policy", "show", "--json"])
        let policy = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(policy?["no_shows"] as? Int == 4 && policy?["late_cancels_count"] as? Bool == false && policy?["suspend_days"] as? [Int] == [5, 10])
        #expect(policy?["within_days"] as? Int == 30, "the others are kept")
        #expect(try await w.value("SELECT count(*) FROM audit_log WHERE action = 'policy.set' AND actor = 'dana'", as: Int.self) == 1)
    }

    @Test func theOfficeRunsACaseFromTheRecordToTheDecision() async throws {
        let w = try await DispatchWorld()
        try await w.pool.withConnection { try $0.execute("INSERT INTO whitelist (net_id, added_by) VALUES ('ann1', 'test')") }
        let trips = MissedTrips(pool: w.pool)
        var refs: [String] = []
        for daysAgo in 2...5 { refs.append(try await trips.noShow("ann1", at: Date().addingTimeInterval(-Double(daysAgo) * 86_400))) }
        #expect(try w.vanadmin(["policy", "set", "--notice-days", "0", "--suspend-days", "7"]).status == 0)
        let standing = NoShowStanding(pool: w.pool, rule: NoShowRule(wait: 300), timeZone: w.zone, hotline: nil)
        let proposed = try #require(try await standing.review("ann1", now: Date()))

        // Her record, by phone: four trips that count.
        let record = try w.vanadmin(["riders", "standing", "ann1", "--json"])
        #expect(record.status == 0, "\(record.stderr)")
        let view = try JSONSerialization.jsonObject(with: Data(record.stdout.utf8)) as? [String: Any]
        #expect(view?["counted"] as? Int == 4 && view?["crosses_policy"] as? Bool == false, "the noticed trips do not cross again")
        let text = try w.vanadmin(["riders", "standing", "ann1"])
        #expect(text.stdout.contains(refs[0]) && text.stdout.contains("COUNTS"), "\(text.stdout)")

        // Suspended from today: the phone booking refuses her in one line, and books nothing …
        let before = try await w.value("SELECT count(*) FROM rides", as: Int.self)
        let refused = try w.vanadmin(["rides", "book", "ann1", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 15:00", "--as", "dana"])
        #expect(refused.status != 0 && refused.stderr.contains("suspended under the no-show policy"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(try await w.value("SELECT count(*) FROM rides", as: Int.self) == before)
        let noReason = try w.vanadmin([
            "rides", "book", "ann1", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 15:00", "--override-suspension",
        ])
        #expect(noReason.status != 0 && noReason.stderr.contains("--override-suspension needs --reason"), "\(noReason.stderr)")
        // … unless the office books a medical trip over it, audited.
        let medical = try w.vanadmin(
            [
                "rides", "book", "ann1", "--from", "SCL", "--to", "Davenport", "--at", "\(w.dayText) 15:00", "--override-suspension", "--reason",
                "dialysis", "--as", "dana",
            ])
        #expect(medical.status == 0 && medical.stdout.hasPrefix("booked "), "\(medical.stderr)")
        #expect(try await w.value("SELECT count(*) FROM suspension_overrides WHERE booked_by = 'dana' AND reason = 'dialysis'", as: Int.self) == 1)

        // Her appeal by phone, then the decision; a second decision is refused in one line.
        let list = try w.vanadmin(["appeals", "list"])
        #expect(list.stdout.contains("\(proposed.id)  ann1  in effect"), "\(list.stdout)")
        let filed = try w.vanadmin(["appeals", "file", "ann1", "--text", "I was ill that week", "--as", "dana"])
        #expect(filed.status == 0, "\(filed.stderr)")
        let decided = try w.vanadmin(["appeals", "decide", "\(proposed.id)", "--overturn", "--reason", "a doctor's note for the week", "--as", "lee"])
        #expect(decided.status == 0 && decided.stdout.contains("overturned"), "\(decided.stderr)")
        let twice = try w.vanadmin(["appeals", "decide", "\(proposed.id)", "--uphold", "--reason", "again"])
        #expect(
            twice.status != 0 && twice.stderr.contains("overturned, with no appeal waiting") && twice.stderr.split(separator: "\n").count == 1,
            "\(twice.stderr)")
        #expect(try await w.value("SELECT count(*) FROM audit_log WHERE action IN ('suspension.appeal', 'suspension.overturn')", as: Int.self) == 2)
        let both = try w.vanadmin(["appeals", "decide", "\(proposed.id)", "--uphold", "--overturn", "--reason", "x"])
        #expect(both.status != 0)

        // An excusal, once.
        let excused = try w.vanadmin(["noshows", "excuse", refs[1], "--reason", "wrong address from us", "--as", "dana"])
        #expect(excused.status == 0 && excused.stdout.contains("no longer counts"), "\(excused.stderr)")
        let again = try w.vanadmin(["noshows", "excuse", refs[1], "--reason", "again"])
        #expect(again.status != 0 && again.stderr.contains("excused already"), "\(again.stderr)")
        let unknown = try w.vanadmin(["noshows", "excuse", "ZZZ-ZZZ", "--reason", "x"])
        #expect(unknown.status != 0 && unknown.stderr.split(separator: "\n").count == 1, "\(unknown.stderr)")

        // The report counts it all.
        let today = LocalDate(containing: Date(), in: w.zone)
        let from = LocalDate(dayNumber: today.dayNumber - 7).description
        let csv = try w.vanadmin(["report", "--from", from, "--to", today.description, "--policy-csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        for line in ["measure,value", "no-shows,4", "notices sent,1", "appeals filed,1", "appeals overturned,1", "missed trips excused,1"] {
            #expect(csv.stdout.contains(line + "\r\n"), "\(line) in \(csv.stdout)")
        }
        let table = try w.vanadmin(["report", "--from", from, "--to", today.description])
        #expect(table.stdout.contains("NO-SHOW POLICY"), "\(table.stdout)")
    }
}
