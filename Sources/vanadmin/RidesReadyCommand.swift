import ArgumentParser
import Foundation
import VanDomain
import VanServices

extension RidesCommand {
    /// `vanadmin rides ready REF`: she phoned to say she is ready; her will-call way back is booked
    /// now, as her own "I'm ready" would (``BookingService/ready(_:netID:actor:now:)``).
    struct Ready: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "She called: book the will-call way back of her ride there now (picked up within VAND_WILL_CALL_MAX_WAIT).",
            discussion: """
                Give the ride there (the one booked with --will-call). The way back is an on-demand ride from where \
                that ride left her back to its pickup. If no van can come within the wait, nothing is booked and her \
                call stays open (exit 1): try again in a few minutes.
                """
        )
        @Argument(help: "The ride there: its reference (K7M-3QX), id, or a unique id prefix.") var id: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            let clock = try DispatchContext.clock()
            let who = try actor.resolved()
            try await withServices { services in
                guard let there = try await RideQueries(pool: services.pool).find(id) else { throw CLIError("no ride \(id)") }
                let outcome: ReadyOutcome
                do {
                    outcome = try await services.booking.ready(there.id, netID: nil, actor: who, now: adminClock.now)
                } catch let error as WillCallError {
                    throw CLIError(error.sentence(clock: clock))
                }
                switch outcome {
                case .booked(let back):
                    say("booked the way back \(DispatchContext.line(back, clock)) (\(back.status.rawValue)\(back.vanName.map { ", \($0)" } ?? ""))")
                case .already(let back):
                    say("already booked: the way back \(DispatchContext.line(back, clock)) (\(back.status.rawValue))")
                case .refused(let refusal):
                    let minutes = Int(services.booking.rules.policy.willCallMaxWait / 60)
                    let why =
                        refusal.refusalCode == BookingOutcome.overlapsCode
                        ? refusal.sentence(clock: clock) ?? "" : "no van can pick her up within \(minutes) minutes"
                    throw CLIError("not booked: \(why); her call stays open, try again in a few minutes")
                }
            }
        }
    }
}
