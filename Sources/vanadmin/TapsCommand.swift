import ArgumentParser
import Foundation
import VanDomain
import VanServices

/// `vanadmin taps correct`: the dispatcher's correction of a driver's tap.
struct TapsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taps",
        abstract: "Correct a driver's tap after her 2-minute undo (audited; the rider is told).",
        subcommands: [Correct.self]
    )

    struct Correct: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Undo the latest tap standing at a ride's stop, at any time (audited with the reason).",
            discussion: """
                For a tap the driver can no longer undo (her undo window passed, or her shift ended). An \
                outcome undone (no-show, on board, dropped off) leaves the "arrived" under it; run it \
                again to undo that too. A no-show or drop-off undone puts the ride back to approved. \
                The rider is told when the correction takes back what she was told: a no-show, or the \
                van's arrival at her pickup.
                """
        )
        @Argument(help: "The ride: its reference (K7M-3QX), id, or a unique id prefix.") var id: String
        @Option(help: "The stop: pickup or dropoff.") var stop: String
        @Option(help: "Why, for the audit log (1 to 500 characters).") var reason: String
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            let who = try actor.resolved()
            guard let stop = StopKind(rawValue: stop) else { throw CLIError("--stop must be pickup or dropoff, not \"\(stop)\"") }
            try await withServices { services in
                let outcome: TapCorrection.Outcome
                do {
                    outcome = try await services.tapCorrections.correct(id, stop: stop, reason: reason, actor: who)
                } catch let error as TapCorrection.Failure {
                    throw CLIError(error.description)
                } catch let error as DispatchService.DispatchError {
                    throw CLIError(error.description)
                }
                let now = outcome.standing.map { "\"\($0.action.phrase)\" stands" } ?? "no tap stands"
                say(
                    "corrected \(id): \"\(outcome.undone.action.phrase)\" at the \(stop == .pickup ? "pickup" : "drop-off") undone; \(now); the ride is \(outcome.rideStatus.rawValue.replacingOccurrences(of: "_", with: " "))"
                )
            }
        }
    }
}
