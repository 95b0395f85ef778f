import Foundation
import Synchronization
import Testing
import VanServices
import VanTestSupport
import VanPostgres

/// `vanadmin watch` on the road's events: one line each, people's text escaped. The taps are
/// written with SQL, so the events are the ones sql/0029's triggers write; the `late` alert (the
/// ETA engineer's sql/0030) is written as its trigger writes it.
@Suite("vanadmin watch: the road's events (real binary, real database)")
struct VanAdminRoadWatchTests {
    @Test func arrivalsBoardingsNoShowsDropOffsUndoesAndLateAlertsAreOneLineEach() async throws {
        let cli = try await CLI.make()
        let db = cli.database()
        let day = RoadDay(pool: db.pool)
        typealias T = RoadDay
        try await day.fleet()
        try await day.shift("dee", "Van 1", from: T.at(6, 0))
        let place = "SCL\u{1B}]0;owned\u{7}"  // an address that would retitle the terminal
        let ride = try await day.ride(
            "Van 1", window: (T.at(10, 0), T.at(10, 15)), pickup: T.at(10, 5), dropoff: T.at(10, 25),
            status: "approved", from: place)
        let other = try await day.ride(
            "Van 1", window: (T.at(13, 0), T.at(13, 15)), pickup: T.at(13, 0), dropoff: T.at(13, 20),
            status: "approved", from: "Gym")
        let since = try await RideEventStore(pool: db.pool).latestID()  // after the rides' own `created`
        try await day.tap(ride.id, "pickup", "arrived", at: T.at(10, 7), by: "dee")
        try await day.tap(ride.id, "pickup", "boarded", at: T.at(10, 9), by: "dee")
        try await db.pool.withConnection { conn in
            try conn.execute("UPDATE stop_taps SET undone_at = \(T.at(10, 9, 30)) WHERE ride_id = \(ride.id) AND action = 'boarded'")
        }
        try await day.tap(ride.id, "pickup", "boarded", at: T.at(10, 10), by: "dee")
        try await db.pool.withConnection { conn in
            try conn.execute(
                """
                INSERT INTO ride_events (ride_id, net_id, kind, payload)
                SELECT id, net_id, 'late', jsonb_build_object('version', 1, 'ride', vand_ride_payload(r), 'pickup_short', pickup_address,
                    'dropoff_short', dropoff_address, 'van', 'Van 1', 'late', jsonb_build_object('stop', 'pickup',
                    'eta', \(T.at(10, 25)), 'window_end', window_end, 'late_minutes', 10))
                FROM rides r WHERE id = \(ride.id)
                """)
        }
        try await day.tap(ride.id, "dropoff", "arrived", at: T.at(10, 27), by: "dee")
        try await day.tap(ride.id, "dropoff", "dropped_off", at: T.at(10, 28), by: "dee")
        try await day.tap(other.id, "pickup", "arrived", at: T.at(13, 5), by: "dee")
        try await day.tap(other.id, "pickup", "no_show", at: T.at(13, 11), by: "dee")
        try await db.pool.withConnection { conn in
            try conn.execute("UPDATE rides SET status = 'completed' WHERE id = \(ride.id)")
            try conn.execute("UPDATE rides SET status = 'no_show' WHERE id = \(other.id)")
        }

        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["watch", "--since", String(since)]
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
        try await withTimeout(seconds: 120) {
            while text.withLock({ $0.split(separator: "\n").count }) < 9 { try await Task.sleep(for: .milliseconds(20)) }
        }
        process.interrupt()
        _ = try await withTimeout(seconds: 120) {
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
        let shown = #"SCL\u{1b}]0;owned\u{7}"#
        #expect(
            lines == [
                "arrived ride \(ride.ref) ann1 at pickup \(shown) 10:07 AM Van 1 (driver dee)",
                "boarded ride \(ride.ref) ann1 at pickup \(shown) 10:09 AM Van 1 (driver dee)",
                "tap_undone ride \(ride.ref) ann1 at pickup \(shown) (undid on board) Van 1 (driver dee)",
                "boarded ride \(ride.ref) ann1 at pickup \(shown) 10:10 AM Van 1 (driver dee)",
                "late ride \(ride.ref) ann1 at pickup \(shown) ETA 10:25 AM 10 min after the window (ends 10:15 AM) Van 1",
                "arrived ride \(ride.ref) ann1 at drop-off Library 10:27 AM Van 1 (driver dee)",
                "arrived ride \(other.ref) ann1 at pickup Gym 1:05 PM Van 1 (driver dee)",
                "completed ride \(ride.ref) ann1 at drop-off Library 10:28 AM Van 1 (driver dee)",
                "no_show ride \(other.ref) ann1 at pickup Gym 1:11 PM Van 1 (driver dee)",
            ])
        await db.close()
        cli.cleanUp()
    }
}
