import ArgumentParser
import Foundation
import VanDomain
import VanServices
import VanScheduler

/// `vanadmin hours show|set`: weekly service windows.
struct HoursCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hours",
        abstract: "Show or replace the weekly service hours (in the service time zone).",
        subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the weekly windows.")
        @Flag(help: "JSON for scripts.") var json = false

        func run() async throws {
            let zone = try serviceTimeZone()
            try await withDatabase { db in
                let hours = try await ServiceCalendarStore(pool: db.pool, timeZone: zone).hours()
                if json { return try printJSON(hours) }
                say("service hours (\(zone.identifier)); an end at or before the start runs past midnight:")
                for window in hours.windows { say("  \(window.spec)") }
                let now = adminClock.now
                if hours.isOpen(at: now) {
                    say("open now")
                } else if let next = hours.nextOpening(after: now) {
                    say("closed now; opens \(format(next, zone))")
                }
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace every window, e.g. hours set \"Mon-Fri 00:00-24:00\" \"Sat 00:00-07:30\" \"Sat,Sun 18:00-07:30\"."
        )
        @Argument(help: "Windows like \"Mon-Fri 08:00-18:00\"; an end at or before the start crosses midnight.") var specs: [String]
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            guard !specs.isEmpty else { throw CLIError("give at least one window, e.g. \"Mon-Fri 08:00-18:00\"") }
            var windows: [ServiceWindow] = []
            do { for spec in specs { windows += try ServiceWindow.parse(spec: spec) } } catch { throw CLIError("\(error)") }
            let zone = try serviceTimeZone()
            try await withDatabase { db in
                try await ServiceCalendarStore(pool: db.pool, timeZone: zone).setHours(windows, actor: try actor.resolved())
                say("service hours set: \(windows.count) windows")
            }
        }
    }
}

/// `vanadmin closures add|list|remove`: whole days without service.
struct ClosuresCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "closures",
        abstract: "Close whole days (holidays, snow days) and reopen them.",
        subcommands: [Add.self, List.self, Remove.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Close a day (YYYY-MM-DD, service time zone).")
        @Argument(help: "The date, YYYY-MM-DD.") var date: String
        @Option(help: "Why, shown to riders.") var reason: String?
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            let day: LocalDate
            do { day = try LocalDate(date) } catch { throw CLIError("\(error)") }
            let zone = try serviceTimeZone()
            try await withDatabase { db in
                try await ServiceCalendarStore(pool: db.pool, timeZone: zone).addClosure(day, reason: reason, actor: try actor.resolved())
                say("closed \(day)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List closed days.")
        @Flag(help: "JSON for scripts.") var json = false

        func run() async throws {
            let zone = try serviceTimeZone()
            try await withDatabase { db in
                let closures = try await ServiceCalendarStore(pool: db.pool, timeZone: zone).closures()
                if json { return try printJSON(closures) }
                printTable(["DATE", "REASON"], closures.map { [$0.day.description, $0.reason ?? ""] })
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Reopen a closed day.")
        @Argument(help: "The date, YYYY-MM-DD.") var date: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            let day: LocalDate
            do { day = try LocalDate(date) } catch { throw CLIError("\(error)") }
            let zone = try serviceTimeZone()
            try await withDatabase { db in
                guard try await ServiceCalendarStore(pool: db.pool, timeZone: zone).removeClosure(day, actor: try actor.resolved()) else {
                    throw CLIError("\(day) is not closed; see `vanadmin closures list`")
                }
                say("reopened \(day)")
            }
        }
    }
}

/// `vanadmin scheduler show|set`: the trip-estimate figures.
struct SchedulerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scheduler",
        abstract: "Show or change the scheduler's figures (boarding, speed, detour, search window).",
        subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the figures in use.")
        @Flag(help: "JSON for scripts.") var json = false

        func run() async throws {
            let zone = try serviceTimeZone()
            try await withDatabase { db in
                let store = ServiceCalendarStore(pool: db.pool, timeZone: zone)
                let settings = try await store.settings()
                if json { return try printJSON(settings) }
                let speeds = try await store.roadSpeeds()
                let e = settings.estimator
                printTable(
                    ["FIGURE", "VALUE"],
                    [
                        ["boarding", "\(e.boarding / 60) min (\(e.wheelchairBoarding / 60) with a wheelchair)"],
                        ["alighting", "\(e.alighting / 60) min (\(e.wheelchairAlighting / 60) with a wheelchair)"],
                        ["detour factor", "\(e.detourFactor)"],
                        ["average speed", "\(e.averageSpeedKmh) km/h"],
                        ["unknown leg / deadhead", "\(e.unknownLegDuration / 60) / \(e.unknownDeadhead / 60) min"],
                        ["search window", "±\(settings.searchWindowMinutes) min, every \(settings.stepMinutes) min"],
                        ["promised window", "\(settings.windowMinutes) min"],
                        [
                            "longest ride",
                            "the longer of \(settings.maxRideFactor) × the direct ride and the direct ride + \(settings.maxRideExtraMinutes) min",
                        ],
                        [
                            "unhurried",
                            settings.unhurriedMarginMinutes.map { "vans wait empty, not with riders aboard; \($0) min kept before each window's end" }
                                ?? "off: every stop as early as it can be",
                        ],
                        ["road as learned", settings.learnRoadSpeed ? RoadSpeeds.summary(speeds) : "off: every drive takes the model's time"],
                        [
                            "will-call room",
                            settings.willCallHoldMinutes.map { "kept for each open will-call from \($0) min after the ride there's drop-off" }
                                ?? "off: her call is served from the room there is",
                        ],
                    ])
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change some figures; the rest keep their values.")
        @Option(help: "Boarding minutes.") var boarding: Double?
        @Option(help: "Boarding minutes with a wheelchair.") var wheelchairBoarding: Double?
        @Option(help: "Alighting minutes.") var alighting: Double?
        @Option(help: "Alighting minutes with a wheelchair.") var wheelchairAlighting: Double?
        @Option(help: "Road distance ÷ straight-line distance.") var detour: Double?
        @Option(help: "Average speed, km/h.") var speed: Double?
        @Option(help: "Suggestion search window, minutes either side.") var searchWindow: Int?
        @Option(help: "Width of a promised pickup (or arrival) window, minutes (0 to 60).") var window: Int?
        @Option(help: "Longest ride as a multiple of the direct ride (1 to 4).") var maxRideFactor: Double?
        @Option(help: "Longest ride as the direct ride plus this many minutes (0 to 120).") var maxRideExtra: Int?
        @Option(help: "Vans wait empty rather than with riders aboard, keeping this many minutes before each window's end (0 to 30), or off.")
        var unhurried: String?
        @Option(
            help:
                "Keep room for each open will-call, expected this many minutes after the ride there's drop-off (0 to 480), or off."
        )
        var willCallHold: String?
        @Option(help: "learned: drive at the road's speed as learned from the drivers' taps (the default); model: at the model's as set.")
        var roadSpeed: String?
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            let zone = try serviceTimeZone()
            try await withDatabase { db in
                let store = ServiceCalendarStore(pool: db.pool, timeZone: zone)
                var settings = try await store.settings()
                if let boarding { settings.estimator.boarding = boarding * 60 }
                if let wheelchairBoarding { settings.estimator.wheelchairBoarding = wheelchairBoarding * 60 }
                if let alighting { settings.estimator.alighting = alighting * 60 }
                if let wheelchairAlighting { settings.estimator.wheelchairAlighting = wheelchairAlighting * 60 }
                if let detour { settings.estimator.detourFactor = detour }
                if let speed { settings.estimator.averageSpeedKmh = speed }
                if let searchWindow {
                    guard (0...720).contains(searchWindow) else { throw CLIError("--search-window must be 0 to 720 minutes") }
                    settings.searchWindowMinutes = searchWindow
                }
                if let window {
                    guard (0...60).contains(window) else { throw CLIError("--window must be 0 to 60 minutes") }
                    settings.windowMinutes = window
                }
                if let maxRideFactor {
                    guard (1...4).contains(maxRideFactor) else { throw CLIError("--max-ride-factor must be 1 to 4") }
                    settings.maxRideFactor = maxRideFactor
                }
                if let maxRideExtra {
                    guard (0...120).contains(maxRideExtra) else { throw CLIError("--max-ride-extra must be 0 to 120 minutes") }
                    settings.maxRideExtraMinutes = maxRideExtra
                }
                if let unhurried { settings.unhurriedMarginMinutes = try minutesOrOff(unhurried, "--unhurried", 0...30) }
                if let willCallHold { settings.willCallHoldMinutes = try minutesOrOff(willCallHold, "--will-call-hold", 0...480) }
                switch roadSpeed?.lowercased() {
                case nil: break
                case "learned": settings.learnRoadSpeed = true
                case "model": settings.learnRoadSpeed = false
                default: throw CLIError("--road-speed must be learned or model")
                }
                do { try settings.estimator.validate() } catch { throw CLIError("\(error)") }
                try await store.setSettings(settings, actor: try actor.resolved())
                say("scheduler figures updated")
            }
        }
    }
}

/// `text` as whole minutes within `range`, or nil for `off`; a one-line error naming `option` otherwise.
private func minutesOrOff(_ text: String, _ option: String, _ range: ClosedRange<Int>) throws -> Int? {
    if text.lowercased() == "off" { return nil }
    guard let minutes = Int(text), range.contains(minutes) else {
        throw CLIError("\(option) must be \(range.lowerBound) to \(range.upperBound) minutes, or off")
    }
    return minutes
}

/// `vanadmin demo`: load the demo fleet and places into an empty database.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Load demo vans and campus places into an empty database (does nothing otherwise)."
    )
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        try await withDatabase { db in
            switch try await DemoData.load(into: db.pool, actor: try actor.resolved()) {
            case .loaded(let vans, let places): say("loaded demo data: \(vans) vans, \(places) places")
            case .skippedNotEmpty: say("the database already has vans or places; demo data not loaded")
            }
        }
    }
}

func format(_ date: Date, _ zone: TimeZone) -> String {
    ServiceTime(timeZone: zone).text(date, .shortDayAndTime)
}
