import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin rides …`: see and decide rides.
struct RidesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rides",
        abstract: "List, show, book (for a rider who phones), approve, reject, re-time, cancel and close rides.",
        discussion: """
            A ride is named by its reference (REF in `rides list`, e.g. K7M-3QX; case and the dash \
            do not matter), its full id, or a prefix of the id that no other ride has.
            """,
        subcommands: [
            List.self, Show.self, Book.self, Approve.self, Reject.self, Cancel.self, Move.self, Unpin.self, Complete.self, NoShow.self, Ready.self,
        ]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rides, soonest first; pending ones are marked with *.")
        @Option(help: "pending, approved, rejected, cancelled, completed or no_show.") var status: String?
        @Option(help: "Local date YYYY-MM-DD.") var date: String?
        @Option(help: "Van name.") var van: String?
        @Option(help: "Rider net ID.") var rider: String?
        @Flag(help: "JSON for scripts.") var json = false

        func run() async throws {
            let clock = try DispatchContext.clock()
            var parsedStatus: RideStatus?
            if let status {
                guard let value = RideStatus(rawValue: status.replacingOccurrences(of: "-", with: "_")) else {
                    throw CLIError("unknown status '\(status)'; use \(RideStatus.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                parsedStatus = value
            }
            let day = try date.map { text in try DispatchContext.date(text) }
            let netID = try rider.map { text in try DispatchContext.netID(text) }
            try await withDatabase { db in
                let listings = try await RideQueries(pool: db.pool).list(
                    status: parsedStatus, day: day, van: van, rider: netID, timeZone: clock.timeZone)
                if json { return try printJSON(listings.map { RideJSON($0, clock: clock) }) }
                let now = adminClock.now
                printTable(
                    ["", "REF", "PICKUP", "RIDER", "FROM → TO", "WC", "VAN", "STATUS", "ASKED"],
                    listings.map { l in
                        [
                            l.ride.status == .pending ? "*" : "", l.ride.ref.rawValue, clock.display(l.ride.pickupAt),
                            l.ride.netID.rawValue + (l.riderName.map { " (\($0))" } ?? ""),
                            "\(l.ride.pickup.displayName) → \(l.ride.dropoff.displayName)", l.ride.needsWheelchair ? "yes" : "",
                            l.ride.vanName ?? "", l.ride.status.rawValue, DispatchContext.age(of: l.ride.requestedAt, now: now),
                        ]
                    })
                let pending = listings.filter { $0.ride.status == .pending }.count
                if pending > 0 { say("\n\(pending) pending: approve with `vanadmin rides approve REF` or `rides approve --all-feasible`") }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Everything about a ride and its history.")
        @Argument(help: "The ride: its reference (K7M-3QX), id, or a unique id prefix.") var id: String
        @Flag(help: "JSON for scripts.") var json = false

        func run() async throws {
            let clock = try DispatchContext.clock()
            try await withDatabase { db in
                let queries = RideQueries(pool: db.pool)
                let (listing, history) = try await queries.show(id)
                let pinnedBy = try await queries.vanPinnedBy(listing.ride.id)
                let wayBack = try await queries.wayBackWords(of: listing.ride.id, clock: clock)
                let rideThere = try await queries.rideThereWords(of: listing.ride, clock: clock)
                if json {
                    struct Both: Encodable {
                        let ride: RideJSON
                        let van_pinned_by: String?
                        let history: [RideQueries.HistoryEntry]
                    }
                    return try printJSON(Both(ride: RideJSON(listing, clock: clock), van_pinned_by: pinnedBy, history: history))
                }
                let r = listing.ride
                func place(_ e: RideEndpoint) -> String {
                    var parts = [e.displayName]
                    if let address = e.address, address != e.displayName { parts.append(address) }
                    if let c = e.coordinate { parts.append(String(format: "%.5f, %.5f", c.latitude, c.longitude)) }
                    return parts.joined(separator: " — ")
                }
                printTable(
                    ["FIELD", "VALUE"],
                    [
                        ["ref", r.ref.rawValue], ["id", r.id.uuidString.lowercased()], ["status", r.status.rawValue], ["kind", r.kind.rawValue],
                        ["rider", r.netID.rawValue + (listing.riderName.map { " (\($0))" } ?? "") + (listing.riderPhone.map { ", \($0)" } ?? "")],
                        ["pickup", clock.display(r.pickupAt) + " at " + place(r.pickup)],
                        ["drop-off", "~" + clock.display(r.estimatedDropoffAt, withDay: false) + " at " + place(r.dropoff)],
                        ["wheelchair", r.needsWheelchair ? "yes" : "no"], ["companions", "\(r.companions)"],
                        [
                            "van",
                            (listing.ride.vanName ?? "-")
                                + (pinnedBy.map { " (kept there by \($0); `vanadmin rides unpin` lets the planner move it)" } ?? ""),
                        ],
                        ["note", r.note ?? "-"], ["reason", r.reason ?? "-"],
                        ["requested", clock.display(r.requestedAt)],
                        ["way back", wayBack ?? "-"],
                        ["ride there", rideThere ?? "-"],
                    ])
                say("\nhistory:")
                for entry in history { say("  \(clock.display(entry.at))  \(entry.actor)  \(entry.action)  \(entry.details)") }
            }
        }
    }

    struct Approve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Approve a pending ride (re-checked against the schedule), or every one that still fits.",
            discussion:
                "--at and --van change the time or van, checked like a booking; if it does not fit, nothing changes and other times are offered."
        )
        @Argument(help: "The ride: its reference (K7M-3QX), id, or a unique id prefix.") var id: String?
        @Option(help: "New pickup time: 15:30 (same day), or 2026-11-23 15:30.") var at: String?
        @Option(help: "Put the ride on this van.") var van: String?
        @Flag(help: "Approve every pending ride that still fits, in request order.") var allFeasible = false
        @Option(help: "With --all-feasible: only rides on this local date.") var date: String?
        @OptionGroup var actor: ActorOptions

        func validate() throws {
            if allFeasible == (id != nil) { throw ValidationError("give a ride id, or --all-feasible") }
            if allFeasible && (at != nil || van != nil) { throw ValidationError("--at and --van apply to one ride, not --all-feasible") }
        }

        func run() async throws {
            let clock = try DispatchContext.clock()
            let who = try actor.resolved()
            try await withServices { services in
                let dispatch = services.dispatch
                if allFeasible {
                    let day = try date.map { text in try DispatchContext.date(text) }
                    let result = try await dispatch.approveAllFeasible(on: day, actor: who, now: adminClock.now)
                    for ride in result.approved { say("approved \(DispatchContext.line(ride, clock))") }
                    for (ride, why) in result.refused { say("not approved \(DispatchContext.line(ride, clock)): \(why)") }
                    say("\(result.approved.count) approved, \(result.refused.count) still pending")
                    return
                }
                let ride = try await DispatchContext.mapping {
                    let current = try await RideQueries(pool: services.pool).find(id!)
                    let newTime = try at.map { text in try clock.parse(text, field: "--at", sameDayAs: current?.pickupAt ?? adminClock.now) }
                    return try await dispatch.approve(id!, at: newTime, van: van, actor: who, now: adminClock.now)
                }
                say("approved \(DispatchContext.line(ride, clock))")
            }
        }
    }

    struct Reject: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Reject a pending ride; the rider sees the reason.")
        @Argument(help: "The ride: its reference (K7M-3QX), id, or a unique id prefix.") var id: String
        @Option(help: "Why (required).") var reason: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            try await DispatchContext.decide("rejected") { dispatch, now in
                try await dispatch.reject(id, reason: reason, actor: try actor.resolved(), now: now)
            }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Cancel a ride on the service's side (e.g. a van broke down).")
        @Argument(help: "The ride: its reference (K7M-3QX), id, or a unique id prefix.") var id: String
        @Option(help: "Why (required; the rider sees it).") var reason: String
        @Flag(help: "Cancel the way back booked with it too (or call off its will-call), with the same reason.") var withReturn = false
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            try await DispatchContext.decide("cancelled") { dispatch, now in
                try await dispatch.cancel(id, reason: reason, actor: try actor.resolved(), now: now)
            }
            guard withReturn else { return }
            // The way back right after, on its own: the ride there stays cancelled whatever it answers.
            let clock = try DispatchContext.clock()
            try await withServices { services in
                let queries = RideQueries(pool: services.pool)
                guard let ride = try await queries.find(id) else { return say("no way back to cancel") }
                guard let back = try await queries.wayBack(of: ride.id) else {
                    let closed = try await queries.closeWillCall(of: ride.id, actor: try actor.resolved(), now: adminClock.now)
                    return say(closed ? "called off the way back she would call for" : "no way back to cancel")
                }
                let cancelled = try await DispatchContext.mapping {
                    try await services.dispatch.cancel(back.id.uuidString, reason: reason, actor: try actor.resolved(), now: adminClock.now)
                }
                say("cancelled the way back \(DispatchContext.line(cancelled, clock))")
            }
        }
    }

    struct Move: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-time a ride or put it on another van (checked like a booking).",
            discussion: "A van named pins the ride there: the planner may re-time it, never move it to another van, until `rides unpin`."
        )
        @Argument(help: "The ride: its reference (K7M-3QX), id, or a unique id prefix.") var id: String
        @Option(help: "New pickup time: 15:30 (same day), or 2026-11-23 15:30.") var at: String?
        @Option(help: "Put the ride on this van.") var van: String?
        @OptionGroup var actor: ActorOptions

        func validate() throws {
            if at == nil && van == nil { throw ValidationError("give --at, --van or both") }
        }

        func run() async throws {
            let clock = try DispatchContext.clock()
            try await withServices { services in
                let ride = try await DispatchContext.mapping {
                    let current = try await RideQueries(pool: services.pool).find(id)
                    let newTime = try at.map { text in try clock.parse(text, field: "--at", sameDayAs: current?.pickupAt ?? adminClock.now) }
                    return try await services.dispatch.move(id, at: newTime, van: van, actor: try actor.resolved(), now: adminClock.now)
                }
                say("moved \(DispatchContext.line(ride, clock))")
            }
        }
    }

    struct Unpin: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Let the planner move a ride to another van again (a van named by approve or move pins it).")
        @Argument(help: "The ride: its reference (K7M-3QX), id, or a unique id prefix.") var id: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            try await withServices { services in
                let released = try await DispatchContext.mapping {
                    try await services.dispatch.unpin(id, actor: try actor.resolved(), now: adminClock.now)
                }
                say(released ? "unpinned \(id): the planner may move it to another van" : "\(id) was not pinned to its van; nothing changed")
            }
        }
    }

    struct Complete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark an approved ride completed (after its pickup time).")
        @Argument(help: "The ride: its reference (K7M-3QX), id, or a unique id prefix.") var id: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            try await DispatchContext.decide("completed") { dispatch, now in try await dispatch.complete(id, actor: try actor.resolved(), now: now) }
        }
    }

    struct NoShow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "no-show", abstract: "Mark an approved ride a no-show (after its pickup time).")
        @Argument(help: "The ride: its reference (K7M-3QX), id, or a unique id prefix.") var id: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            try await DispatchContext.decide("no-show") { dispatch, now in try await dispatch.noShow(id, actor: try actor.resolved(), now: now) }
        }
    }
}

/// Shared helpers of the ride commands.
enum DispatchContext {
    static func clock() throws -> ServiceTime { ServiceTime(timeZone: try serviceTimeZone()) }

    static func date(_ text: String) throws -> LocalDate {
        do { return try LocalDate(text) } catch { throw CLIError("--date: \(error.reason)") }
    }

    static func netID(_ text: String) throws -> NetID {
        do { return try NetID(text) } catch { throw CLIError("--rider: \(error.reason)") }
    }

    /// Opens the database, runs one decision as of now, and prints "`verb` <ride line>".
    static func decide(_ verb: String, _ change: @escaping (DispatchService, Date) async throws -> Ride) async throws {
        let clock = try clock()
        try await withServices { services in
            let ride = try await mapping { try await change(services.dispatch, adminClock.now) }
            say("\(verb) \(line(ride, clock))")
        }
    }

    /// Runs `body`, turning refusals into one-line errors.
    static func mapping<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch let error as DispatchService.DispatchError {
            throw CLIError(error.description)
        } catch let error as VanDomain.ValidationError {
            throw CLIError("\(error.field): \(error.reason)")
        }
    }

    /// `K7M-3QX Mon Nov 23, 3:00 PM jd123 SCL → Davenport`.
    static func line(_ ride: Ride, _ clock: ServiceTime) -> String {
        "\(ride.ref.rawValue) \(clock.display(ride.pickupAt)) \(ride.netID.rawValue) \(ride.pickup.displayName) → \(ride.dropoff.displayName)"
    }

    /// `12 min`, `3 h`, `2 d` since the request.
    static func age(of date: Date, now: Date) -> String {
        let minutes = Int(now.timeIntervalSince(date) / 60)
        if minutes < 60 { return "\(max(0, minutes)) min" }
        if minutes < 48 * 60 { return "\(minutes / 60) h" }
        return "\(minutes / 1_440) d"
    }
}
