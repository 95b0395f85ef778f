import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin series …`: a rider's standing series, edited, held and resumed for her by phone,
/// through the service her app uses (every change checked like a booking; nothing changes until
/// `--apply`, and an apply that a date refuses changes nothing).
struct SeriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "series",
        abstract: "A rider's standing (weekly) rides: list, show, edit one date or all from a date, hold, resume.",
        subcommands: [SeriesList.self, SeriesShow.self, SeriesEditCommand.self, SeriesHoldCommand.self, SeriesResumeCommand.self]
    )
}

/// The series' owner, or one line saying there is no such series.
private func seriesOwner(_ id: UUID, _ services: VandServices) async throws -> NetID {
    guard let owner = try await services.series.owner(of: id) else {
        throw CLIError("no series \(id.uuidString.lowercased()); see vanadmin series list NET_ID")
    }
    return owner
}

/// A series id from the command line.
private func parseSeriesID(_ text: String) throws -> UUID {
    guard let id = UUID(uuidString: text) else { throw CLIError("'\(text)' is not a series id; see vanadmin series list NET_ID") }
    return id
}

/// `DATE=CHOICE` options into the service's choices.
private func parseChoices(_ options: [String]) throws -> [String: String] {
    var choices: [String: String] = [:]
    for option in options {
        let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw CLIError("--choose takes DATE=skip, DATE=keep or DATE=HH:MM, not '\(option)'") }
        choices[parts[0]] = parts[1]
    }
    return choices
}

/// Prints a change date by date, and fails (nothing changed) when an apply was refused.
private func report(_ answer: SeriesChangeAnswer, apply: Bool, json: Bool, clock: ServiceTime) throws {
    if json {
        try printJSON(SeriesChangeView(answer, clock: clock))
    } else {
        printTable(
            ["date", "result", "time", "was", "detail"],
            answer.dates.map { date in
                let view = SeriesDateView(date, clock: clock)
                var detail = view.detail ?? ""
                if !view.suggestions.isEmpty { detail += " Suggested: " + view.suggestions.map(\.choice).joined(separator: ", ") }
                if let ride = view.ride { detail = "\(ride.ref) \(ride.status)" }
                return [view.date, view.result, date.asked.map { clock.text($0, .clockTime) } ?? "", view.wasRef ?? "", detail]
            })
    }
    let conflicts = answer.conflicts.count
    if apply, !answer.applied {
        throw CLIError(
            "nothing changed: \(conflicts) date\(conflicts == 1 ? " does" : "s do") not fit; choose with --choose DATE=skip|keep|HH:MM and --apply again"
        )
    }
    if !json {
        say(
            answer.applied
                ? "changed \(answer.dates.count) date\(answer.dates.count == 1 ? "" : "s"); the rider is told of each ride"
                : "checked only, nothing changed\(conflicts > 0 ? ": \(conflicts) date\(conflicts == 1 ? "" : "s") need a choice" : ""); add --apply to make it"
        )
    }
}

/// `vanadmin series list NET_ID`: her series.
struct SeriesList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "A rider's series, newest first.")
    @Argument(help: "The rider's net ID.") var netID: String
    @Flag(help: "Print JSON for scripts.") var json = false

    func run() async throws {
        let rider = try parseNetID(netID)
        let clock = ServiceTime(timeZone: try serviceTimeZone())
        try await withServices { services in
            let all = try await services.series.list(for: rider)
            if json { return try printJSON(all.map { StandingSeriesView($0, clock: clock) }) }
            if all.isEmpty { return say("\(rider.rawValue) has no standing series") }
            printTable(
                ["series", "days", "time", "until", "from", "to"],
                all.map { s in
                    let t = s.template
                    return [
                        s.id.uuidString.lowercased(), s.weekdayNames, (t.promise == .arriveBy ? "arrive by " : "") + t.time.description,
                        s.until.description, t.pickup.displayName, t.dropoff.displayName,
                    ]
                })
        }
    }
}

/// `vanadmin series show ID`: the pattern, template, holds and rides.
struct SeriesShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "A series: its pattern, template, holds and rides.")
    @Argument(help: "The series id.") var id: String
    @Flag(help: "Print JSON for scripts.") var json = false

    func run() async throws {
        let seriesID = try parseSeriesID(id)
        let clock = ServiceTime(timeZone: try serviceTimeZone())
        try await withServices { services in
            let now = adminClock.now
            let detail = try await services.series.show(seriesID, for: try await seriesOwner(seriesID, services), now: now)
            if json { return try printJSON(StandingSeriesView(detail, now: now, clock: clock)) }
            let s = detail.series, t = s.template
            say("series \(s.id.uuidString.lowercased()) of \(s.netID.rawValue)")
            say(
                "  \(s.weekdayNames) until \(s.until): \(t.promise == .arriveBy ? "arrive by" : "pickup at") \(t.time) from \(t.pickup.displayName) to \(t.dropoff.displayName)"
            )
            let today = LocalDate(containing: now, in: clock.timeZone)
            for hold in detail.holds {
                let state = hold.resumedAt.map { "resumed \(clock.text($0, .shortDayAndTime))" } ?? (hold.isOpen(today: today) ? "open" : "over")
                say("  hold \(hold.id): \(hold.from) to \(hold.to), \(state)")
            }
            for (day, reason) in detail.closedDays.sorted(by: { $0.key < $1.key }) { say("  closed \(day)\(reason.map { ": \($0)" } ?? "")") }
            printTable(
                ["ref", "pickup", "status", "reason"],
                detail.rides.map { [$0.ref.rawValue, clock.text($0.pickupAt, .shortDayAndTime), $0.status.rawValue, $0.reason ?? ""] })
        }
    }
}

/// `vanadmin series edit ID --date D --one|--from …`: checks, or with `--apply` makes, an edit.
struct SeriesEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Edit one date (--one) or every date from one on (--from): checked first; --apply makes it.")
    @Argument(help: "The series id.") var id: String
    @Option(help: "The date, YYYY-MM-DD.") var date: String
    @Flag(help: "That date's ride only.") var one = false
    @Flag(name: .customLong("from"), help: "Every ride from that date on, and the series' template.") var fromDate = false
    @Option(help: "The new time, HH:MM.") var time: String?
    @Option(help: "pickup or arrive_by.") var promise: String?
    @Option(help: "A new pickup place.") var pickup: String?
    @Option(help: "A new drop-off place.") var dropoff: String?
    @Option(name: .customLong("choose"), help: ArgumentHelp("A date that did not fit: DATE=skip, DATE=keep or DATE=HH:MM.", valueName: "date=choice"))
    var choices: [String] = []
    @Flag(help: "Make the change (without it, only check).") var apply = false
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var actor: ActorOptions

    func validate() throws {
        if one == fromDate { throw ValidationError("give one of --one or --from") }
    }

    func run() async throws {
        let seriesID = try parseSeriesID(id)
        let who = try actor.resolved()
        let clock = ServiceTime(timeZone: try serviceTimeZone())
        let request = SeriesEditRequest(
            scope: one ? "one" : "from", date: date, time: time, promise: promise, pickup: pickup.map { PlaceMatcher.Input(place: $0) },
            dropoff: dropoff.map { PlaceMatcher.Input(place: $0) }, choices: try parseChoices(choices))
        try await withServices { services in
            let owner = try await seriesOwner(seriesID, services)
            let answer = try await services.series.edit(seriesID, for: owner, request, apply: apply, now: adminClock.now, actor: who)
            try report(answer, apply: apply, json: json, clock: clock)
        }
    }
}

/// `vanadmin series hold ID --from D --to D`: holds the series for a date range.
struct SeriesHoldCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hold", abstract: "Hold a series for a date range: its rides then are cancelled (not late), the rider is told.")
    @Argument(help: "The series id.") var id: String
    @Option(help: "The first date held, YYYY-MM-DD.") var from: String
    @Option(help: "The last date held, YYYY-MM-DD.") var to: String
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        let seriesID = try parseSeriesID(id)
        let who = try actor.resolved()
        let clock = ServiceTime(timeZone: try serviceTimeZone())
        try await withServices { services in
            let owner = try await seriesOwner(seriesID, services)
            let held = try await services.series.hold(seriesID, for: owner, from: from, to: to, now: adminClock.now, actor: who)
            if json { return try printJSON(SeriesHoldView(held, clock: clock)) }
            let refs = held.cancelled.map(\.ref.rawValue).joined(separator: ", ")
            say(
                "hold \(held.hold.id): \(held.hold.from) to \(held.hold.to); \(held.cancelled.count) ride\(held.cancelled.count == 1 ? "" : "s") cancelled: \(refs)"
            )
        }
    }
}

/// `vanadmin series resume ID [--hold N]`: checks, or with `--apply` makes, an early end of a hold.
struct SeriesResumeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume", abstract: "Resume a held series early: its remaining held dates are booked again (checked first; --apply).")
    @Argument(help: "The series id.") var id: String
    @Option(help: "The hold's number (default: the series' one open hold).") var hold: Int64?
    @Option(name: .customLong("choose"), help: ArgumentHelp("A date that did not fit: DATE=skip or DATE=HH:MM.", valueName: "date=choice"))
    var choices: [String] = []
    @Flag(help: "Make the change (without it, only check).") var apply = false
    @Flag(help: "Print JSON for scripts.") var json = false
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        let seriesID = try parseSeriesID(id)
        let who = try actor.resolved()
        let clock = ServiceTime(timeZone: try serviceTimeZone())
        let chosen = try parseChoices(choices)
        try await withServices { services in
            let owner = try await seriesOwner(seriesID, services)
            let now = adminClock.now
            var holdID = hold
            if holdID == nil {
                let today = LocalDate(containing: now, in: clock.timeZone)
                let open = try await services.series.show(seriesID, for: owner, now: now).holds.filter { $0.isOpen(today: today) }
                guard open.count == 1 else {
                    throw CLIError(open.isEmpty ? "the series has no open hold" : "the series has \(open.count) open holds; give --hold N")
                }
                holdID = open[0].id
            }
            let answer = try await services.series.resume(seriesID, hold: holdID!, for: owner, choices: chosen, apply: apply, now: now, actor: who)
            try report(answer, apply: apply, json: json, clock: clock)
        }
    }
}
