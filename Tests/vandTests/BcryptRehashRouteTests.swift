import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// `VAND_BCRYPT_COST` raised from 4 to 5: a sign-in over the API with the right password stores
/// the password hashed at 5; a wrong one leaves the hash as it was.
@Suite("A sign-in re-hashes a password made at an older bcrypt cost")
struct BcryptRehashRouteTests {
    static func storedCost(_ f: RouterFixture) async throws -> Int? {
        PasswordHasher.cost(
            of: try await f.database.pool.withConnection {
                try $0.query("SELECT password_hash FROM riders WHERE net_id = 'jd123'").first!.decode(String.self, at: 0)
            })
    }

    @Test func aSignInAfterTheCostWasRaisedStoresTheNewCost() async throws {
        let f = try await RouterFixture()
        try await f.activeRider("jd123")  // hashed at 4
        var configuration = f.configuration
        configuration.accounts.bcryptCost = 5
        #expect(try await Self.storedCost(f) == 4)
        let routes = buildRoutes(configuration: configuration, database: f.database, clock: f.clock)
        try await f.application(routes).test(.router) { client in
            let wrong = Wire.body(["net_id": "jd123", "password": "not the password"])
            try await client.execute(uri: "/v1/session", method: .post, headers: Wire.json, body: wrong) { #expect($0.status == .unauthorized) }
            #expect(try await Self.storedCost(f) == 4)
            _ = try await client.token("jd123", "correct horse battery")
            #expect(try await Self.storedCost(f) == 5)
            // The re-hashed password still signs in.
            _ = try await client.token("jd123", "correct horse battery")
        }
        await f.close()
    }
}
