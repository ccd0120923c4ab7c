import CitySim
import DispatchCore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// A service on a manual clock with a 4 × 4 km city of 3 × 3 whole square zones (4/3 km sides, 1.78 km²:
/// 2 km² whole squares would leave the outer 0.6 km of the city outside every zone), TAXInseconds'
/// rules, bcrypt cost 4 and a one-hour token lifetime (`configure` changes the config further). Share
/// `store` (and `plannerStore`) between two fixtures to restart.
struct ServiceFixture {
    static let adminEmail = "admin@example.com"
    static let adminPassword = "admin-password"
    static let scenarioYAML = """
        name: service-test
        seed: 1
        duration_hours: 1
        city: { width_km: 4, height_km: 4, zone: { side_km: 1.3333333333333333 }, metric: manhattan, detour_factor: 1.2, speed_kmh: 30 }
        demand: { requests_per_hour: 10 }
        fleet: { shifts: [ { name: all-day, start: "00:00", end: "24:00", taxis: 1 } ] }
        dispatch: { policy: zone-fifo }
        """

    let clock: ManualClock
    let store: any DispatchStore
    let service: DispatchServiceApp
    var host: DispatchHost { service.host }

    init(store: any DispatchStore = InMemoryDispatchStore(), clock: ManualClock = ManualClock(),
         plannerStore: (any PlannerStore)? = nil, configure: (inout ServiceConfig) -> Void = { _ in }) async throws {
        let scenarioFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("citysim-service-test-\(UUID().uuidString).yaml")
        try Self.scenarioYAML.write(to: scenarioFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: scenarioFile) }
        var config = ServiceConfig(scenario: scenarioFile.path, database: "unused", admin: .init(
            email: Self.adminEmail, password: Self.adminPassword), tokenLifetimeS: 3600, bcryptCost: 4)
        configure(&config)
        self.clock = clock
        self.store = store
        service = try await DispatchServiceApp.open(config: config, clock: clock, store: store, plannerStore: plannerStore)
    }

    /// Runs `body` against the router (no sockets), or with `.live` against a server on a real socket.
    /// - Parameter keepAlive: time between keep-alive comments on open event streams.
    func test<T>(_ setup: TestingSetup = .router, keepAlive: Duration = .seconds(15),
                 _ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        let router = service.router(keepAlive: keepAlive)
        let app = Application(router: router)
        return try await app.test(setup, body)
    }
}

/// A temporary folder removed at the end of the test.
final class TemporaryFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("citysim-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

// MARK: - Calling the API

extension TestClientProtocol {
    /// Sends a request with an optional bearer token and JSON body.
    @discardableResult
    func call(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    /// Logs in and returns the bearer token.
    func login(_ email: String, _ password: String) async throws -> String {
        let response = try await call(.post, "/v1/auth/login", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
        #expect(response.status == .ok, "login of \(email): \(String(buffer: response.body))")
        return try response.decode(SessionBody.self).token
    }

    /// Registers a customer and returns (account id, token).
    func customer(_ email: String, password: String = "customer-password") async throws -> (id: Int, token: String) {
        let response = try await call(.post, "/v1/accounts", json: #"{"email":"\#(email)","password":"\#(password)","name":"C"}"#)
        #expect(response.status == .created, "\(String(buffer: response.body))")
        return (try response.decode(AccountBody.self).id, try await login(email, password))
    }

    /// The administrator adds a driver; the driver logs in, starts a shift at (x, y) and turns available.
    func availableDriver(_ code: String, x: Double = 500, y: Double = 500, adminToken: String) async throws -> (id: Int, token: String) {
        let email = "\(code.lowercased())@taxi.example"
        let created = try await call(.post, "/v1/admin/drivers", token: adminToken, json: """
            {"email":"\(email)","password":"driver-password","name":"D","licence":"L-\(code)","taxi_code":"\(code)"}
            """)
        #expect(created.status == .created, "\(String(buffer: created.body))")
        let token = try await login(email, "driver-password")
        try await call(.post, "/v1/driver/shift", token: token, json: #"{"action":"start","position":{"x":\#(x),"y":\#(y)}}"#)
        let available = try await call(.put, "/v1/driver/availability", token: token, json: #"{"available":true}"#)
        #expect(available.status == .ok, "\(String(buffer: available.body))")
        return (try created.decode(AccountBody.self).id, token)
    }

    func admin() async throws -> String { try await login(ServiceFixture.adminEmail, ServiceFixture.adminPassword) }
}

extension TestResponse {
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: Data(body.readableBytesView))
    }

    /// The problem document of an error response.
    var problem: Problem.Document? { try? decode(Problem.Document.self) }
    var text: String { String(buffer: body) }
}

/// A ride from (900, 400) to (3000, 3000) with no patience.
let rideJSON = #"{"origin":{"x":900,"y":400},"destination":{"x":3000,"y":3000}}"#
