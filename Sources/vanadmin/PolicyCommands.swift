import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin policy …`: the office's no-show policy, read aloud and changed.
struct PolicyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "policy",
        abstract: "Show or change the no-show policy (49 CFR 37.125(h)).",
        subcommands: [PolicyShow.self, PolicySet.self]
    )
}

/// `vanadmin policy show`.
struct PolicyShow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the no-show policy in sentences.")
    @Flag(help: "Print JSON for scripts.") var json = false

    func run() async throws {
        try await withServices { services in
            let policy = try await services.standing.policy()
            if json { return try printJSON(policy) }
            for sentence in policy.sentences { say("\(sentence)") }
        }
    }
}

/// `vanadmin policy set …`: changes the numbers given, keeps the others; audited.
struct PolicySet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change the no-show policy (only the options given); audited.",
        discussion: """
            A pattern is at least --no-shows counted no-shows in a rolling --within-days days AND at least --share \
            percent of her scheduled trips in them. Example: vanadmin policy set --no-shows 3 --within-days 30 --share 10 \
            --late-cancels count --suspend-days 7,14,21,28 --notice-days 10 --appeal-days 10
            """
    )
    @Option(help: "Counted no-shows that make a pattern (1-100).") var noShows: Int?
    @Option(help: "The rolling window, in days (1-365).") var withinDays: Int?
    @Option(help: "The share of her scheduled trips, in percent (0-100).") var share: Double?
    @Option(help: "count | ignore: whether late cancellations count like no-shows.") var lateCancels: String?
    @Option(help: "Progressive suspension lengths in days, e.g. 7,14,21,28.") var suspendDays: String?
    @Option(help: "Days from the notice to the suspension's start (0-90).") var noticeDays: Int?
    @Option(help: "Days she has to appeal, from the notice (1-90).") var appealDays: Int?
    @Option(help: "keep | cancel: what a no-show on a ride there does to her way back (default keep).") var noShowReturn: String?
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        let who = try actor.resolved()
        try await withServices { services in
            var policy = try await services.standing.policy()
            if let noShows { policy.noShows = noShows }
            if let withinDays { policy.withinDays = withinDays }
            if let share { policy.sharePercent = share }
            if let lateCancels {
                switch lateCancels.lowercased() {
                case "count": policy.lateCancelsCount = true
                case "ignore": policy.lateCancelsCount = false
                default: throw CLIError("--late-cancels must be count or ignore, not '\(lateCancels)'")
                }
            }
            if let suspendDays {
                let days = suspendDays.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
                guard !days.isEmpty, days.allSatisfy({ $0 != nil }) else {
                    throw CLIError("--suspend-days must be whole days separated by commas, e.g. 7,14,21,28")
                }
                policy.suspendDays = days.compactMap { $0 }
            }
            if let noticeDays { policy.noticeDays = noticeDays }
            if let appealDays { policy.appealDays = appealDays }
            if let noShowReturn {
                switch noShowReturn.lowercased() {
                case "keep": policy.noShowCancelsReturn = false
                case "cancel": policy.noShowCancelsReturn = true
                default: throw CLIError("--no-show-return must be keep or cancel, not '\(noShowReturn)'")
                }
            }
            try await services.standing.setPolicy(policy, actor: who)
            say("no-show policy changed:")
            for sentence in policy.sentences { say("  \(sentence)") }
        }
    }
}

/// `vanadmin noshows excuse REF --reason …`.
struct NoShowsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "noshows", abstract: "Excuse a missed trip so that it never counts.", subcommands: [NoShowsExcuse.self])
}

/// `vanadmin noshows excuse REF --reason …`: illness, a family emergency, a wrong address from us.
struct NoShowsExcuse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "excuse", abstract: "Excuse a no-show or late cancellation (it never counts); audited.")
    @Argument(help: "The ride's reference (K7M-3QX) or id.") var ride: String
    @Option(help: "Why: illness, a family emergency, a wrong address from us, …") var reason: String
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        let who = try actor.resolved()
        try await withServices { services in
            let excused = try await services.standing.excuse(ride, reason: reason, actor: who, now: adminClock.now)
            say("excused \(excused.ref) of \(excused.netID): it no longer counts")
        }
    }
}

/// `vanadmin riders standing NET_ID`: her record under the policy.
struct RidersStanding: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "standing", abstract: "A rider's record under the no-show policy: each missed trip, counted or why not, and her cases.")
    @Argument(help: "The rider's net ID.") var netID: String
    @Flag(help: "Print JSON for scripts.") var json = false

    func run() async throws {
        let rider = try parseNetID(netID)
        let clock = try DispatchContext.clock()
        try await withServices { services in
            let now = adminClock.now
            let standing = try await services.standing.standing(rider.rawValue, now: now)
            let today = LocalDate(containing: now, in: clock.timeZone)
            if json { return try printJSON(StandingView(standing, today: today, clock: clock)) }
            say("\(rider.rawValue): \(standing.record.standingSentence)")
            if standing.record.entries.isEmpty { say("no missed trips in the last \(standing.record.policy.withinDays) days") }
            for entry in standing.record.entries {
                let how = entry.trip.status == .noShow ? "no-show" : "late cancel"
                let verdict: String
                switch entry.verdict {
                case .counts: verdict = "COUNTS"
                case .excluded(let why): verdict = "excluded: \(why.sentence(clock))"
                }
                say("  \(entry.trip.ref)  \(clock.text(entry.trip.pickupAt, .shortDayAndTime))  \(how)  \(verdict)")
            }
            for s in standing.cases {
                say(
                    "case \(s.id): \(s.phase(on: today)); \(s.periodDays) days \(s.startsOn) to \(s.endsOn); trips \(s.trips.map(\.ref).joined(separator: ", "))"
                )
            }
        }
    }
}
