import ArgumentParser
import Foundation
import VanDomain
import VanScheduler
import VanServices

extension RidesCommand {
    /// `vanadmin rides book NET_ID …`: a dispatcher books for a rider who phones, through the
    /// rider's own booking path (the same whitelist check, rules, scheduler and suggestions).
    struct Book: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Book a ride for a rider (who phoned): the same rules and suggestions as the rider's own booking.",
            discussion: """
                The ride is the rider's: she sees it in her app and hears of it as of any ride she booked. \
                The audit log and the ride's events name you (--as) as who booked it. If the time is taken, \
                nothing is booked and the nearest times that work are printed; book one of them with --at.
                """
        )
        @Argument(help: "The rider's net ID.") var netID: String
        @Option(help: "Pickup place (name or alias, e.g. SCL).") var from: String
        @Option(help: "Drop-off place (name or alias).") var to: String
        @Option(help: "Pickup time: 15:30 (today), or 2026-11-23 15:30.") var at: String?
        @Option(help: "Arrive at the drop-off by this time instead (same forms as --at).") var arriveBy: String?
        @Flag(help: "As soon as the van can come (on demand).") var now = false
        @Flag(help: "The rider uses a wheelchair.") var wheelchair = false
        @Option(help: "People riding with her.") var companions = 0
        @Option(help: "A note for the driver.") var note: String?
        @Option(help: "Repeat weekly on these days, e.g. mon,wed,fri (with --until).") var every: String?
        @Option(help: "Last date of a weekly series, YYYY-MM-DD.") var until: String?
        @Option(help: "Book her way back too, picked up at this time (same forms as --at): both or neither.") var returnAt: String?
        @Option(help: "Where the way back starts, when not where the ride ends (with --return-at or --will-call).") var returnFrom: String?
        @Flag(help: "Her way back waits for her call (\"I'll call when I'm ready\"): `rides ready` books it then.") var willCall = false
        @Flag(help: "Book although her rides are suspended under the no-show policy (a medical trip); needs --reason.")
        var overrideSuspension = false
        @Option(help: "Why the suspension is overridden (audited).") var reason: String?
        @Flag(help: "JSON for scripts.") var json = false
        @OptionGroup var actor: ActorOptions

        func validate() throws {
            if overrideSuspension && (reason ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                throw ValidationError("--override-suspension needs --reason")
            }
            if reason != nil && !overrideSuspension { throw ValidationError("--reason goes with --override-suspension") }
            let times = [at != nil, arriveBy != nil, now].filter { $0 }.count
            if times != 1 { throw ValidationError("give one of --at, --arrive-by or --now") }
            if (every == nil) != (until == nil) { throw ValidationError("--every and --until go together") }
            if now && every != nil { throw ValidationError("--now books one ride; a weekly series needs --at or --arrive-by") }
            if returnFrom != nil && returnAt == nil && !willCall { throw ValidationError("--return-from goes with --return-at or --will-call") }
            if returnAt != nil && willCall { throw ValidationError("give --return-at or --will-call, not both") }
            if (returnAt != nil || willCall) && every != nil {
                throw ValidationError("a weekly series books its way back as a series of its own; leave out --return-at and --will-call")
            }
        }

        func run() async throws {
            let clock = try DispatchContext.clock()
            let who = try actor.resolved()
            let rider: NetID
            do { rider = try NetID(netID) } catch { throw CLIError("NET_ID: \(error.reason)") }
            let asOf = adminClock.now
            // The CLI's own time forms ("15:30" is today), handed to the rules as ISO 8601.
            func iso(_ text: String?, _ flag: String) throws -> String? {
                guard let text else { return nil }
                do { return clock.format(try clock.parse(text, field: flag, sameDayAs: asOf)) } catch { throw CLIError("\(flag): \(error.reason)") }
            }
            let request = BookingRequest(
                kind: now ? .onDemand : .scheduled, pickupAt: try iso(at, "--at"), arriveBy: try iso(arriveBy, "--arrive-by"),
                pickup: .init(place: from), dropoff: .init(place: to), needsWheelchair: wheelchair, companions: companions, note: note,
                repeats: every.map {
                    BookingRequest.Repeat(
                        weekdays: $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }, until: until ?? "")
                },
                returnTrip: willCall
                    ? BookingRequest.Return(pickup: returnFrom.map { .init(place: $0) }, willCall: true)
                    : try iso(returnAt, "--return-at").map { BookingRequest.Return(pickupAt: $0, pickup: returnFrom.map { .init(place: $0) }) }
            )
            // The services as vand builds them (VandServices): the phone booking books by the same
            // rules (VAND_AUTO_APPROVE, the horizon, the service area, the on-demand lead).
            try await withServices { services in
                let booking = services.booking
                let today = LocalDate(containing: asOf, in: clock.timeZone)
                // Whom a dispatcher may book for: the console's rule (RiderDirectory), word for word.
                guard let listing = try await services.riders.rider(rider, today: today) else {
                    throw CLIError("\(rider.rawValue) is not a rider: no rider account or whitelist entry has this net ID")
                }
                if let reason = listing.notClearedReason { throw CLIError("\(rider.rawValue) may not be booked for: \(reason)") }
                let prepared = try await booking.requestContext(for: rider, today: today)
                let checked: CheckedBooking
                do throws(InvalidFields) { checked = try booking.check(request, for: rider, places: prepared.places, now: asOf) } catch {
                    throw CLIError(error.errors.map { "\(Self.flag(for: $0.field)): \($0.reason)" }.joined(separator: "; "))
                }
                if let trip = checked.trip {
                    let outcome = try await booking.bookTrip(
                        trip.there, trip.back, now: asOf, bookedBy: who, overrideSuspension: overrideSuspension ? reason : nil)
                    return try Self.report(outcome, rider: rider, clock: clock, json: json)
                }
                let outcomes = try await booking.bookSeries(
                    checked.rides, now: asOf, bookedBy: who, overrideSuspension: overrideSuspension ? reason : nil, willCall: checked.willCall)
                if json { return try printJSON(outcomes.map { Answer($0, clock: clock) }) }
                var refused = 0
                for outcome in outcomes {
                    switch outcome {
                    case .booked(let ride):
                        say("booked \(DispatchContext.line(ride, clock)) (\(ride.status.rawValue)\(ride.vanName.map { ", \($0)" } ?? ""))")
                        if let from = checked.willCall {
                            say("  and back when she calls, from \(from.displayName): vanadmin rides ready \(ride.ref.rawValue)")
                        }
                    case .refused, .overlaps:
                        refused += 1
                        say("not booked: \(outcome.sentence(clock: clock) ?? "")")
                        let times = Self.suggestions(outcome).map { clock.text($0.pickupAt, .dayAtTime) }
                        if !times.isEmpty { say("  times that work: \(times.joined(separator: "; "))") }
                    }
                }
                if refused == outcomes.count { throw CLIError("nothing booked for \(rider.rawValue)") }
            }
        }

        /// Prints a trip's outcome: both rides, or why neither was booked and the times that work
        /// for the leg that did not fit (exit 1).
        static func report(_ outcome: TripOutcome, rider: NetID, clock: ServiceTime, json: Bool) throws {
            let legs: [BookingOutcome]
            var suggestions: [Suggestion] = []
            switch outcome {
            case .booked(let there, let back): legs = [.booked(there), .booked(back)]
            case .refused(_, let leg):
                legs = [leg]
                suggestions = Self.suggestions(leg)
            case .backTooSoon(_, let suggestion):
                legs = []
                suggestions = suggestion.map { [$0] } ?? []
            }
            if json {
                if case .booked = outcome { return try printJSON(legs.map { Answer($0, clock: clock) }) }
                return try printJSON([Answer(refusal: outcome, suggestions: suggestions, clock: clock)])
            }
            guard case .booked(let there, let back) = outcome else {
                say("not booked: \(outcome.sentence(clock: clock) ?? "")")
                let times = suggestions.map { clock.text($0.asked, .dayAtTime) }
                if !times.isEmpty { say("  times that work for the way back: \(times.joined(separator: "; "))") }
                throw CLIError("nothing booked for \(rider.rawValue)")
            }
            for (label, ride) in [("booked", there), ("and back", back)] {
                say("\(label) \(DispatchContext.line(ride, clock)) (\(ride.status.rawValue)\(ride.vanName.map { ", \($0)" } ?? ""))")
            }
        }

        /// The suggestions of a refusal.
        static func suggestions(_ outcome: BookingOutcome) -> [Suggestion] {
            if case .refused(let feasibility, _) = outcome { return feasibility.suggestions }
            return []
        }

        /// The option a rule's field came from.
        static func flag(for field: String) -> String {
            switch field {
            case "return", "return.pickup_at": return "--return-at"
            case "return.pickup": return "--return-from"
            case "return.will_call": return "--will-call"
            default: break
            }
            return switch field.split(separator: ".").first.map(String.init) ?? field {
            case "pickup": "--from"
            case "dropoff": "--to"
            case "pickup_at": "--at"
            case "arrive_by": "--arrive-by"
            case "repeat", "repeats": "--every/--until"
            case "companions": "--companions"
            case "note": "--note"
            case "needs_wheelchair": "--wheelchair"
            default: field
            }
        }

        /// One outcome for `--json`.
        struct Answer: Encodable {
            let booked: RideJSON?
            let refused: String?
            let reason: String?
            let suggestions: [String]

            init(_ outcome: BookingOutcome, clock: ServiceTime) {
                if case .booked(let ride) = outcome {
                    booked = RideJSON(ride, riderName: nil, riderPhone: nil, clock: clock)
                } else {
                    booked = nil
                }
                refused = outcome.sentence(clock: clock)
                reason = outcome.refusalCode
                suggestions = Book.suggestions(outcome).map { clock.format($0.pickupAt) }
            }

            init(refusal: TripOutcome, suggestions: [Suggestion], clock: ServiceTime) {
                booked = nil
                refused = refusal.sentence(clock: clock)
                reason = refusal.refusalCode
                self.suggestions = suggestions.map { clock.format($0.asked) }
            }
        }
    }
}
