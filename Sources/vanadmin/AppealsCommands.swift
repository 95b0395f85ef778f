import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin appeals …`: the cases of the no-show policy, appeals filed by phone, decisions.
struct AppealsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appeals",
        abstract: "List suspension cases, file a rider's appeal by phone, decide an appeal.",
        subcommands: [AppealsList.self, AppealsFile.self, AppealsDecide.self]
    )
}

/// `vanadmin appeals list`: riders under notice, on hold and suspended.
struct AppealsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The open cases (or --all), newest first.")
    @Flag(help: "Every case, also ended and overturned ones.") var all = false
    @Flag(help: "Print JSON for scripts.") var json = false

    /// One case in `--json`.
    struct Line: Encodable {
        let id: Int64
        let net_id: String
        let status: String
        let phase: String
        let trips: [String]
        let starts_on: String
        let ends_on: String
        let appeal_by: String
        let appeal: String?
        let decision: String?
    }

    func run() async throws {
        let clock = try DispatchContext.clock()
        try await withServices { services in
            let now = adminClock.now
            let today = LocalDate(containing: now, in: clock.timeZone)
            let cases = try await services.standing.cases(openOnly: !all, now: now)
            if json {
                return try printJSON(
                    cases.map {
                        Line(
                            id: $0.id, net_id: $0.netID, status: $0.status.rawValue, phase: $0.phase(on: today), trips: $0.trips.map(\.ref),
                            starts_on: $0.startsOn.rawValue, ends_on: $0.endsOn.rawValue, appeal_by: $0.appealBy.rawValue,
                            appeal: $0.appeal?.text, decision: $0.decision?.reason)
                    })
            }
            if cases.isEmpty { return say(all ? "no cases" : "no open cases") }
            for s in cases {
                say("\(s.id)  \(s.netID)  \(s.phase(on: today))  \(s.periodDays) days \(s.startsOn) to \(s.endsOn)  appeal by \(s.appealBy)")
                if let appeal = s.appeal { say("    appeal: \(appeal.text)") }
                if let decision = s.decision { say("    decision: \(decision.upheld ? "upheld" : "overturned"): \(decision.reason)") }
            }
        }
    }
}

/// `vanadmin appeals file NET_ID --text …`: her appeal, taken by phone.
struct AppealsFile: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "file", abstract: "File a rider's appeal she made by phone: her suspension is on hold until decided.")
    @Argument(help: "The rider's net ID.") var netID: String
    @Option(help: "Her words.") var text: String
    @OptionGroup var actor: ActorOptions

    func run() async throws {
        let rider = try parseNetID(netID)
        let who = try actor.resolved()
        try await withServices { services in
            let appealed = try await services.standing.appeal(rider.rawValue, text: text, filedBy: who, now: adminClock.now)
            say("appeal filed for \(rider.rawValue) (case \(appealed.id)): the suspension is on hold until decided")
        }
    }
}

/// `vanadmin appeals decide ID --uphold|--overturn --reason …`: the written decision.
struct AppealsDecide: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decide", abstract: "Decide an appeal: the written decision, with its reasons, reaches the rider.")
    @Argument(help: "The case number (vanadmin appeals list).") var id: Int64
    @Flag(help: "Uphold the suspension.") var uphold = false
    @Flag(help: "Overturn it.") var overturn = false
    @Option(help: "The reasons, as she will read them.") var reason: String
    @OptionGroup var actor: ActorOptions

    func validate() throws {
        if uphold == overturn { throw ValidationError("give one of --uphold or --overturn") }
    }

    func run() async throws {
        let who = try actor.resolved()
        try await withServices { services in
            let decided = try await services.standing.decide(id, uphold: uphold, reason: reason, actor: who, now: adminClock.now)
            say(
                uphold
                    ? "case \(decided.id) upheld: \(decided.netID) is suspended from \(decided.startsOn) until \(decided.endsOn)"
                    : "case \(decided.id) overturned: \(decided.netID) may book as usual")
        }
    }
}
