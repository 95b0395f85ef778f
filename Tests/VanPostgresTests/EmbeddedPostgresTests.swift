import Foundation
import NIOPosix
import Testing
import VanTestSupport
@testable import VanServices
@testable import VanPostgres

@Suite("Embedded PostgreSQL")
struct EmbeddedPostgresTests {
    @Test func secondProcessReusesTheClusterAndOnlyTheStarterStopsIt() async throws {
        let directory = TestCluster.directory + "-shared"
        let starter = EmbeddedPostgres(directory: directory, ephemeral: true, port: 5434, logger: TestCluster.quietLogger)
        let joiner = EmbeddedPostgres(directory: directory, ephemeral: true, port: 5434, logger: TestCluster.quietLogger)
        defer { try? starter.forceStop(); try? FileManager.default.removeItem(atPath: directory) }
        let configuration = PGConfiguration(connectionString: starter.connectionString())
        func answers() async -> Bool {
            (try? await NIOThreadPool.singleton.runIfActive {
                let conn = try PGConnection(configuration: configuration)
                defer { conn.close() }
                return try conn.query("SELECT 1").count == 1
            }) ?? false
        }
        try await NIOThreadPool.singleton.runIfActive { try starter.start() }
        #expect(await answers())
        try await NIOThreadPool.singleton.runIfActive { try joiner.start() }
        try await NIOThreadPool.singleton.runIfActive { joiner.stop() }
        #expect(await answers(), "the joiner must not stop a cluster it did not start")
        try await NIOThreadPool.singleton.runIfActive { starter.stop() }
        #expect(await answers() == false)
        // Starting again reuses the existing data folder (no second initdb).
        try await NIOThreadPool.singleton.runIfActive { try starter.start() }
        #expect(await answers())
    }

    @Test func databaseSettingsComeFromTheEnvironment() throws {
        let embedded = try DatabaseSettings.fromEnvironment(["VAND_DATA_DIR": "/srv/vand"])
        guard case .embedded(let directory) = embedded.target else { Issue.record("expected embedded"); return }
        #expect(directory == "/srv/vand")
        let server = try DatabaseSettings.fromEnvironment(["DATABASE_URL": "postgresql://u:pw@db.example/vand", "VAND_DB_POOL_SIZE": "12"])
        guard case .server(let url) = server.target else { Issue.record("expected server"); return }
        #expect(url == "postgresql://u:pw@db.example/vand")
        #expect(server.poolSize == 12)
        let bad = try #require(throws: SettingError.self) { try DatabaseSettings.fromEnvironment(["VAND_DB_POOL_SIZE": "lots"]) }
        #expect(bad.description.contains("VAND_DB_POOL_SIZE"))
        let badURL = try #require(throws: SettingError.self) {
            try DatabaseSettings.fromEnvironment(["DATABASE_URL": "postgresql://u:topsecret@h/x?no_such_option=1"])
        }
        #expect(badURL.description.contains("DATABASE_URL"))
        #expect(!badURL.description.contains("topsecret"))
    }
}
