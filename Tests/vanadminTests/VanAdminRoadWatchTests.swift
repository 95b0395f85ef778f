import Foundation
import Synchronization
import Testing
import VanServices
import VanTestSupport
import VanPostgres

/// `vanadmin watch` on the road's events: one line each, people's text escaped.
@Suite("vanadmin watch: the road's events (real binary, real database)")
struct VanAdminRoadWatchTests {
    /// Writes an event of `kind` as the road's triggers do: the ride's payload (version 1) with
    /// the places and van, and the tap's (`road`) or the alert's (`late`) own object.
    static func event(_ db: Database, ride: UUID, ref: String, kind: String, extra: String) async throws {
        try await db.pool.withConnection { conn in
            try conn.execute("""
                INSERT INTO ride_events (ride_id, net_id, kind, payload)
                VALUES (\(ride), 'ann1', \(kind), jsonb_build_object(
                    'version', 1, 'ride', jsonb_build_object('ref', \(ref)::text),
                    'pickup_short', E'SCL\\u001b]0;owned\\u0007', 'dropoff_short', 'Library', 'van', 'Van 1')
                    || \(extra)::jsonb)
                """)
        }
    }

    @Test func arrivalsBoardingsNoShowsDropOffsUndoesAndLateAlertsAreOneLineEach() async throws {
        let cli = try await CLI.make()
        let db = cli.database()
        let day = RoadDay(pool: db.pool)
        try await day.fleet()
        let ride = try await day.ride("Van 1", window: (RoadDay.at(10, 0), RoadDay.at(10, 15)), pickup: RoadDay.at(10, 0),
                                      dropoff: RoadDay.at(10, 20), status: "completed")
        let created = try await RideEventStore(pool: db.pool).latestID()  // the ride's own `created`
        let tap = { (stop: String, action: String, at: String) in
            #"{"road": {"stop": "\#(stop)", "action": "\#(action)", "at": "2026-11-16T\#(at):00-05:00", "driver": "dee"}}"#
        }
        for (kind, extra) in [
            ("arrived", tap("pickup", "arrived", "10:07")),
            ("boarded", tap("pickup", "boarded", "10:09")),
            ("tap_undone", tap("pickup", "boarded", "10:09")),
            ("late", #"{"late": {"stop": "pickup", "eta": "2026-11-16T10:25:00-05:00", "window_end": "2026-11-16T10:15:00-05:00", "late_minutes": 10}}"#),
            ("no_show", "{}"),
            ("arrived", tap("dropoff", "arrived", "10:27")),
            ("completed", tap("dropoff", "dropped_off", "10:28")),
        ] {
            try await Self.event(db, ride: ride.id, ref: ride.ref, kind: kind, extra: extra)
        }

        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["watch", "--since", String(created)]
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = cli.databaseURL
        environment["VAND_TIMEZONE"] = "America/New_York"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let text = Mutex("")
        out.fileHandleForReading.readabilityHandler = { handle in
            let chunk = String(decoding: handle.availableData, as: UTF8.self)
            text.withLock { $0 += chunk }
        }
        try process.run()
        try await withTimeout(seconds: 15) {
            while text.withLock({ $0.split(separator: "\n").count }) < 7 { try await Task.sleep(for: .milliseconds(20)) }
        }
        process.interrupt()
        _ = try await withTimeout(seconds: 10) {
            while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        }
        out.fileHandleForReading.readabilityHandler = nil
        let output = text.withLock { $0 }
        // No raw control character reached the terminal; the place's shows escaped.
        #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        // `#N HH:MM:SS ` is the event's id and the database's time; the rest is what this test wrote.
        let lines = output.split(separator: "\n").map { line in
            line.split(separator: " ", maxSplits: 2).last.map(String.init) ?? ""
        }
        let place = #"SCL\u{1b}]0;owned\u{7}"#
        #expect(lines == [
            "arrived ride \(ride.ref) ann1 at pickup \(place) 10:07 AM Van 1 (driver dee)",
            "boarded ride \(ride.ref) ann1 at pickup \(place) 10:09 AM Van 1 (driver dee)",
            "tap_undone ride \(ride.ref) ann1 at pickup \(place) (undid on board) Van 1 (driver dee)",
            "late ride \(ride.ref) ann1 at pickup \(place) ETA 10:25 AM 10 min after the window (ends 10:15 AM) Van 1",
            "no_show ride \(ride.ref) ann1 at pickup \(place) Van 1",
            "arrived ride \(ride.ref) ann1 at drop-off Library 10:27 AM Van 1 (driver dee)",
            "completed ride \(ride.ref) ann1 at drop-off Library 10:28 AM Van 1 (driver dee)",
        ])
        await db.close()
        cli.cleanUp()
    }
}
