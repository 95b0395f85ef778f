import ArgumentParser
import Dispatch
import Foundation
import VanDomain
import Glibc
import VanServices
import VanPostgres

/// `vanadmin watch [--since ID]`: the dispatcher's live feed of ride events.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Show ride events live as they happen (Ctrl-C to stop).",
        discussion: """
            One line per event: id, time, kind, ride, rider, pickup place and time, van, who changed it.
            Events arrive at once through LISTEN; --since ID first shows every event after ID, so a
            watcher that was away can catch up without gaps.
            """
    )

    @Option(help: "First show the events after this id (default: only new ones).") var since: Int64?
    @Flag(help: "One JSON object per line, for scripts.") var json = false

    func run() async throws {
        let zone = try serviceTimeZone()
        try await withDatabase { db in
            let store = RideEventStore(pool: db.pool)
            let start: Int64
            if let since { start = since } else { start = try await store.latestID() }
            let configuration = db.pool.configuration
            let json = self.json
            let watching = Task {
                var last = start
                let events = PGListener.events(configuration: configuration, channels: ["vand_ride_events"])
                // The first `.listening` (and one after every reconnect) reads what was missed.
                do {
                    for await _ in events {
                        while true {
                            let batch = try await store.events(after: last)
                            for event in batch { emit(json ? WatchLine.json(event) : WatchLine.text(event, zone: zone)) }
                            guard let newest = batch.last?.id else { break }
                            last = newest
                        }
                    }
                } catch  where Task.isCancelled {
                    // Ctrl-C while reading: a clean stop.
                }
            }
            // Ctrl-C (or SIGTERM) ends the watch cleanly: the listener closes, the database too.
            let stop = { @Sendable in watching.cancel() }
            var sources: [any DispatchSourceSignal] = []
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler(handler: stop)
                source.resume()
                sources.append(source)
            }
            defer { sources.forEach { $0.cancel() } }
            try await watching.value
        }
    }
}

/// Writes one line to stdout at once (no buffering, so a pipe sees it live).
private func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// How `vanadmin watch` prints an event.
enum WatchLine {
    /// `#42 14:45:02 approved ride K7M-3QX ann1 SCL → Davenport Mon Nov 30, 3:00 PM Van 1 (by dispatcher)`;
    /// the road's events as ``RoadWatchLine`` words them; every part escaped (``Swift/String/escapingControlCharacters``).
    static func text(_ event: RideEvent, zone: TimeZone) -> String {
        let details = event.details
        var parts = [
            "#\(event.id)", clock(event.createdAt, zone), event.kind, "ride \(details.ref ?? String(event.rideID.uuidString.lowercased().prefix(8)))",
        ]
        if let netID = event.netID { parts.append(netID) }
        if let road = RoadWatchLine.parts(event, zone: zone) {
            return (parts + road).map(\.escapingControlCharacters).joined(separator: " ")
        }
        parts.append("\(details.pickupShort ?? "?") → \(details.dropoffShort ?? "?")")
        if let pickup = details.pickupAt { parts.append(format(pickup, zone)) }
        if let van = details.van { parts.append(van) }
        if let actor = actor(event) { parts.append("(by \(actor))") }
        return parts.map(\.escapingControlCharacters).joined(separator: " ")
    }

    /// `{"id":42,"kind":"approved",…}` — the webhook's body.
    static func json(_ event: RideEvent) -> String {
        var object = (try? JSONSerialization.jsonObject(with: Data(event.payload.utf8)) as? [String: Any]) ?? [:]
        object["id"] = event.id
        object["kind"] = event.kind
        object["ride_id"] = event.rideID.uuidString.lowercased()
        object["net_id"] = event.netID
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func actor(_ event: RideEvent) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(event.payload.utf8)) as? [String: Any])?["actor"] as? String
    }

    private static func clock(_ date: Date, _ zone: TimeZone) -> String {
        ServiceTime(timeZone: zone).text(date, .seconds)
    }
}
