import Foundation
import Hummingbird
import HummingbirdTesting
import VanDomain
import VanServices
import VanTestSupport
@testable import vand
import VanPostgres

/// The real router on a fresh database, a manual clock and bcrypt at cost 4,
/// plus the dispatcher's services on the same database and clock.
struct RouterFixture {
    let database: Database
    let clock = ManualClock()
    let configuration: AppConfiguration
    let riders: RiderAdministration
    let whitelist: WhitelistAdministration

    init(hotline: String? = "607-555-0100", trustedProxies: TrustedProxies = .none) async throws {
        database = try await TestCluster.makeDatabase()
        var configuration = AppConfiguration.forTests()
        configuration.accounts.bcryptCost = 4
        configuration.hotline = hotline
        configuration.trustedProxies = trustedProxies
        self.configuration = configuration
        riders = RiderAdministration(
            pool: database.pool, hasher: PasswordHasher(cost: 4), settings: configuration.accounts,
            clock: clock, timeZone: configuration.timeZone)
        whitelist = WhitelistAdministration(riders: riders)
    }

    /// The production routes, and the services they need running.
    func router() -> VandRoutes {
        buildRoutes(configuration: configuration, database: database, clock: clock)
    }

    /// The application of `routes` (default: ``router()``), which runs their services as vand does.
    func application(_ routes: VandRoutes? = nil) -> some ApplicationProtocol {
        let routes = routes ?? router()
        return Application(
            router: routes.router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), services: routes.services,
            logger: TestCluster.quietLogger)
    }

    /// An invited rider who chose `password`.
    func activeRider(_ netID: String, password: String = "correct horse battery") async throws {
        let id = try NetID(netID)
        _ = try await riders.invite(id, actor: "test")
        let hash = try await PasswordHasher(cost: 4).hash(password)
        try await database.pool.withConnection { _ = try RiderStore($0).setPassword(id, hash: hash) }
    }

    func close() async { await database.close() }
}

/// JSON request bodies and response parsing for tests.
enum Wire {
    static func body(_ object: [String: Any?]) -> ByteBuffer {
        let cleaned = object.mapValues { $0 ?? NSNull() }
        return ByteBuffer(bytes: try! JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys]))
    }

    static func object(_ buffer: ByteBuffer?) -> [String: Any] {
        guard let buffer, let value = try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any] else { return [:] }
        return value
    }

    static func bearer(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)", .contentType: "application/json"] }
    static let json: HTTPFields = [.contentType: "application/json"]
}

extension TestClientProtocol {
    /// Logs in and returns the parsed answer and status.
    func login(_ netID: String, _ password: String) async throws -> (status: HTTPResponse.Status, body: [String: Any], headers: HTTPFields) {
        try await execute(uri: "/v1/session", method: .post, headers: Wire.json, body: Wire.body(["net_id": netID, "password": password])) {
            response in
            (response.status, Wire.object(response.body), response.headers)
        }
    }

    /// Logs in and returns the token, failing the test otherwise.
    func token(_ netID: String, _ password: String) async throws -> String {
        let (status, body, _) = try await login(netID, password)
        guard status == .created, let token = body["token"] as? String else { throw TestFailure("login of \(netID) answered \(status): \(body)") }
        return token
    }
}

extension AppConfiguration {
    /// A test server's configuration: any free port, and a request head timeout of a minute. The
    /// production 5 s counts from the connect; a test process running hundreds of tests beside a
    /// release build once stalled its own client that long, and the server closed the connection
    /// before the request ("I/O on closed channel", two real-socket tests in one loaded CI run).
    /// Tests of the head timeout set their own.
    static func forTests(target: String = "unused") -> AppConfiguration {
        var configuration = AppConfiguration(database: DatabaseSettings(target: .server(target)))
        configuration.port = 0
        configuration.connections.headTimeout = .seconds(60)
        // A loaded test machine may take seconds to open a pool's first connection; the
        // readiness tests ask whether the database answers, not how fast.
        configuration.readinessDeadline = .seconds(60)
        return configuration
    }
}
