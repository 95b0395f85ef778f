import ArgumentParser
import Foundation
import VanDomain
import VanServices

extension VansCommand {
    /// `vanadmin vans token VAN`: a new tracker token for the van, printed once.
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue a new tracker token for a van (printed once; the old one stops working).",
            discussion: """
                A vehicle tracker (AVL unit) posts the van's positions to POST /v1/vans/{id}/positions with
                "Authorization: Bearer TOKEN". Only the token's SHA-256 is kept.
                """
        )
        @Argument(help: "The van's name, e.g. \"Van 1\".") var name: String
        @Flag(help: "Print JSON for scripts.") var json = false
        @OptionGroup var actor: ActorOptions

        func run() async throws {
            let who = try actor.resolved()
            try await withDatabase { db in
                let (van, token) = try await TrackerTokens(pool: db.pool, clock: adminClock).issue(vanNamed: name, actor: who)
                if json { return try printJSON(TokenOutput(van: van.name, van_id: van.id, token: token.rawValue)) }
                say("tracker token for \(van.name) (id \(van.id)): \(token.rawValue)")
                say("shown only this once; post positions to /v1/vans/\(van.id)/positions with \"Authorization: Bearer <token>\"")
            }
        }

        private struct TokenOutput: Encodable {
            let van: String
            let van_id: Int64
            let token: String
        }
    }
}
