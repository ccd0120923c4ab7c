import Foundation

/// A signed-in party of the load run: its account id and bearer token.
public struct SignedIn: Sendable {
    public var accountID: Int
    public var token: String
}

/// Creates the accounts a load run needs through the API: signs the administrator in,
/// registers customers and has the administrator add drivers, then signs each in.
///
/// Invariant: names carry the run's `tag`, so runs against one database never collide
/// on email, licence or taxi code; logins refused with 429 are retried after a pause.
public struct LoadSetup: Sendable {
    public let api: ServiceAPI
    /// Distinguishes this run's accounts from earlier runs' in the same database.
    public let tag: String
    public let password = "load-test-password"
    /// How many account calls run at once (bcrypt makes them slow on the server).
    public var parallel = 16

    public init(api: ServiceAPI, tag: String) {
        self.api = api
        self.tag = tag
    }

    /// A setup call the service refused (status 0: it did not answer).
    public enum SetupError: Error, CustomStringConvertible {
        case refused(String, status: Int)
        public var description: String {
            switch self {
            case .refused(let what, let status): return "load setup: \(what) answered HTTP \(status)"
            }
        }
    }

    /// Signs in with the given credentials (retrying while rate-limited).
    public func login(email: String, password: String) async throws -> SignedIn {
        for attempt in 0..<30 {
            let answer = await api.call(.POST, "/v1/auth/login", token: nil,
                                        body: WireCredentials(email: email, password: password))
            if answer.status == 200, let session = answer.decode(WireSession.self) {
                return SignedIn(accountID: session.account.id, token: session.token)
            }
            guard answer.status == 429 || answer.status == 0, attempt < 29 else {
                throw SetupError.refused("login of \(email)", status: answer.status)
            }
            try await Task.sleep(for: .seconds(1))
        }
        throw SetupError.refused("login of \(email)", status: 429)
    }

    /// Registers and signs in `count` customers.
    public func customers(_ count: Int) async throws -> [SignedIn] {
        try await inParallel(count) { i in
            let email = "load-\(tag)-customer-\(i)@load.test"
            let answer = await api.call(.POST, "/v1/accounts", token: nil,
                                        body: WireRegistration(email: email, name: "customer \(i)", password: password))
            guard answer.status == 201 else { throw SetupError.refused("registration of \(email)", status: answer.status) }
            return try await login(email: email, password: password)
        }
    }

    /// Adds `codes.count` drivers through the administrator and signs each in.
    public func drivers(taxiCodes codes: [String], admin: SignedIn) async throws -> [SignedIn] {
        try await inParallel(codes.count) { i in
            let email = "load-\(tag)-driver-\(i)@load.test"
            let driver = WireNewDriver(email: email, licence: "L-\(tag)-\(i)", name: "driver \(i)", password: password,
                                       taxiCode: String("\(codes[i])-\(tag)".prefix(20)))
            let answer = await api.call(.POST, "/v1/admin/drivers", token: admin.token, body: driver)
            guard answer.status == 201 else { throw SetupError.refused("adding driver \(email)", status: answer.status) }
            return try await login(email: email, password: password)
        }
    }

    /// Runs `body` for 0..<count, at most `parallel` at once; results in index order.
    private func inParallel(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> SignedIn) async throws -> [SignedIn] {
        var results = [SignedIn?](repeating: nil, count: count)
        try await withThrowingTaskGroup(of: (Int, SignedIn).self) { group in
            var next = 0
            while next < min(parallel, count) {
                let i = next
                group.addTask { (i, try await body(i)) }
                next += 1
            }
            while let (i, signedIn) = try await group.next() {
                results[i] = signedIn
                if next < count {
                    let j = next
                    group.addTask { (j, try await body(j)) }
                    next += 1
                }
            }
        }
        return results.map { $0! }
    }
}
