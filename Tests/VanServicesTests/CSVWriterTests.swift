import Testing
import VanServices

@Suite("CSV writer")
struct CSVWriterTests {
    @Test func aRecordReadsBackAsTheSameFields() throws {
        let fields = ["plain", "a, b", "say \"hi\"", "two\nlines", " padded ", "", "ünïcode"]
        let text = CSV.record(["h1", "h2", "h3", "h4", "h5", "h6", "h7"]) + CSV.record(fields)
        #expect(text.hasSuffix("\r\n"))
        #expect(CSV.record(fields).hasPrefix("plain,\"a, b\",\"say \"\"hi\"\"\",\"two\nlines\",\" padded \",,ünïcode"))
        #expect(try CSV(text).records.map(\.fields) == [fields])
    }

    @Test func textThatWouldStartAFormulaIsShownNotRun() {
        #expect(CSV.text("=1+1") == "'=1+1")
        #expect(CSV.text("+1") == "'+1")
        #expect(CSV.text("-x") == "'-x")
        #expect(CSV.text("@SUM(A1)") == "'@SUM(A1)")
        #expect(CSV.text("\tx") == "'\tx")
        #expect(CSV.text("Van 1") == "Van 1")
        #expect(CSV.text("") == "")
    }
}
