import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

@Suite("vand health and errors")
struct HealthRoutesTests {
    func configuration(port: Int = 0) -> AppConfiguration {
        var configuration = AppConfiguration.forTests(target: "")
        configuration.port = port
        return configuration
    }

    @Test func healthAndReadinessThroughTheRouter() async throws {
        let database = try await TestCluster.makeDatabase()
        let app = buildApplication(configuration: configuration(), database: database, logger: TestCluster.quietLogger)
        try await app.test(.router) { client in
            let health = try await client.execute(uri: "/healthz", method: .get)
            #expect(health.status == .ok)
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .ok)
            #expect(String(buffer: ready.body).contains(#""database":"ok""#))
        }
        await database.close()
    }

    @Test func readinessOverARealSocket() async throws {
        let database = try await TestCluster.makeDatabase()
        let app = buildApplication(configuration: configuration(), database: database, logger: TestCluster.quietLogger)
        try await app.test(.live) { client in
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .ok)
        }
        await database.close()
    }

    @Test func unknownRouteIsProblemJSON() async throws {
        let database = try await TestCluster.makeDatabase()
        let app = buildApplication(configuration: configuration(), database: database, logger: TestCluster.quietLogger)
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/v1/nothing-here", method: .get)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/problem+json")
            let body = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]
            #expect(body?["type"] as? String == "/problems/not-found")
            #expect(body?["status"] as? Int == 404)
        }
        await database.close()
    }

    @Test func databaseDownIs503ProblemNotACrash() async throws {
        // A pool pointing at a socket folder with no server behind it.
        let pool = PGPool(configuration: PGConfiguration(connectionString: "host=/nonexistent-vand-socket dbname=vand user=postgres"), size: 1)
        let database = Database(pool: pool)
        let app = buildApplication(configuration: configuration(), database: database, logger: TestCluster.quietLogger)
        try await app.test(.router) { client in
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .serviceUnavailable)
            #expect(ready.headers[.contentType] == "application/problem+json")
            #expect(ready.headers[.retryAfter] == "5")
            #expect(String(buffer: ready.body).contains("database-unavailable"))
        }
        await database.close()
    }
}

@Suite("vand configuration")
struct AppConfigurationTests {
    @Test func defaultsWorkOnALaptop() throws {
        let configuration = try AppConfiguration.fromEnvironment([:])
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.timeZone.identifier == "America/New_York")
        guard case .embedded = configuration.database.target else { Issue.record("expected the embedded database"); return }
    }

    @Test(arguments: [
        ("VAND_PORT", "eighty"),
        ("VAND_PORT", "70000"),
        ("VAND_TIMEZONE", "Mars/Olympus"),
        ("VAND_LOG_LEVEL", "loud"),
        ("VAND_DB_POOL_SIZE", "0"),
    ])
    func badSettingNamesTheVariable(_ variable: String, _ value: String) {
        let error = #expect(throws: SettingError.self) { try AppConfiguration.fromEnvironment([variable: value]) }
        #expect(error?.variable == variable)
        #expect(error?.description.contains(value) == true)
    }
}
