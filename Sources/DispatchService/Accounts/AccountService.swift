import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix

/// Why an account operation was refused. Mapped to problem documents by the HTTP layer.
public enum AccountError: Error, Equatable, Sendable {
    case invalidCredentials
    case tooManyAttempts(retryAfter: Double)
    case invalidToken
    case invalidResetToken
    /// Bad input, and the request field at fault when there is one.
    case invalidInput(String, field: String? = nil)
    case taken(String)
    case unknownAccount
    /// A password change named a wrong current password.
    case wrongPassword
}

/// A signed-in caller.
public struct Identity: Sendable, Equatable {
    public var accountID: Int
    public var role: Role
    public var tokenHash: String
}

/// Accounts, passwords and bearer tokens over a `DispatchStore`.
///
/// Passwords are bcrypt hashes (cost configurable: 12 in service, 4 in tests);
/// tokens are 32 random bytes handed out once and stored as SHA-256 hashes,
/// with an expiry; logins are rate-limited per account and per client address.
///
/// ```swift
/// let accounts = AccountService(store: store, clock: SystemClock())
/// let customer = try await accounts.register(email: "ana@example.com", password: "correct horse", name: "Ana")
/// let session = try await accounts.login(email: "ana@example.com", password: "correct horse", client: "10.0.0.1")
/// ```
public struct AccountService: Sendable {
    public struct Settings: Sendable {
        public var bcryptCost: UInt8 = 12
        public var tokenLifetime: Double = 86_400
        public var resetTokenLifetime: Double = 3_600
        /// Login attempts per account before its bucket refills (one every `60 / loginAttemptsPerMinute` s).
        public var loginBurst: Double = 5
        public var loginAttemptsPerMinute: Double = 5
        /// Login attempts per client address (many people may share one address).
        public var clientLoginBurst: Double = 30
        public var clientLoginAttemptsPerMinute: Double = 30
        public init() {}
    }

    public let store: any DispatchStore
    public let clock: any ServiceClock
    public let settings: Settings
    let accountLimiter: TokenBucket
    let clientLimiter: TokenBucket
    /// Checked against when the email is unknown, so both failures take a bcrypt's time.
    let decoyHash: String
    /// Tokens verified against the store, so each request does not read SQLite (see `VerifiedTokens`).
    let verified = VerifiedTokens()

    public init(store: any DispatchStore, clock: any ServiceClock, settings: Settings = Settings()) {
        self.store = store
        self.clock = clock
        self.settings = settings
        accountLimiter = TokenBucket(capacity: settings.loginBurst, refillPerSecond: settings.loginAttemptsPerMinute / 60)
        clientLimiter = TokenBucket(capacity: settings.clientLoginBurst,
                                    refillPerSecond: settings.clientLoginAttemptsPerMinute / 60)
        decoyHash = Bcrypt.hash("decoy password", cost: settings.bcryptCost)
    }

    // MARK: - Accounts

    /// Creates an account with a hashed password. Customers register themselves; drivers and
    /// administrators are created by an administrator or the configuration.
    /// - Throws: `AccountError.invalidInput` or `.taken`.
    public func create(email: String, password: String, name: String, role: Role,
                       licence: String? = nil, taxiCode: String? = nil) async throws -> Account {
        guard Self.isEmail(email) else { throw AccountError.invalidInput("email must look like name@domain", field: "email") }
        let email = email.lowercased()
        try Self.checkPassword(password, field: "password")
        try Self.checkName(name)
        let account = Account(email: email, name: name, role: role, passwordHash: try await hash(password),
                              licence: licence, taxiCode: taxiCode)
        do { return try await store.insert(account) } catch StoreError.duplicate(let what) { throw AccountError.taken(what) }
    }

    /// A customer registers.
    public func register(email: String, password: String, name: String) async throws -> Account {
        try await create(email: email, password: password, name: name, role: .customer)
    }

    /// The documented email rule (`Registration.email` in the OpenAPI document): at most 254 code points,
    /// one `@` with something on each side, no space, tab, CR or LF.
    static func isEmail(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard scalars.count <= 254 else { return false }
        let parts = scalars.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { part in
            !part.isEmpty && !part.contains { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        }
    }

    /// A password's length in Unicode code points, as the document's `minLength`/`maxLength` count them.
    static let passwordLength = 8...128

    static func checkPassword(_ password: String, field: String? = nil) throws {
        guard passwordLength.contains(password.unicodeScalars.count) else {
            throw AccountError.invalidInput("password must be 8 to 128 characters long", field: field)
        }
    }

    /// A name's most code points (`maxLength` in the document).
    static func checkName(_ name: String) throws {
        guard name.unicodeScalars.count <= 200 else {
            throw AccountError.invalidInput("name is longer than 200 characters", field: "name")
        }
    }

    /// What bcrypt is given for a password. Bcrypt reads at most 72 bytes and stops at a NUL, so a password
    /// it cannot take whole (over 72 UTF-8 bytes, or with a NUL) is first reduced to the base64 of its
    /// SHA-256 (44 bytes): every character counts. Shorter passwords go in as they are, so hashes stored
    /// before this rule still verify.
    static func bcryptInput(_ password: String) -> String {
        guard password.utf8.count > 72 || password.utf8.contains(0) else { return password }
        return Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    /// Bcrypt is slow on purpose: it runs on NIO's blocking thread pool, not on the cooperative executor.
    func hash(_ password: String) async throws -> String {
        let cost = settings.bcryptCost
        let input = Self.bcryptInput(password)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(input, cost: cost) }
    }

    func verify(_ password: String, hash: String) async throws -> Bool {
        let input = Self.bcryptInput(password)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(input, hash: hash) }
    }

    // MARK: - Sessions

    /// Checks the password and hands out a new bearer token.
    /// - Parameter client: the caller's address, for the per-address rate limit.
    /// - Returns: the token (shown once) and its expiry.
    /// - Throws: `AccountError.tooManyAttempts` or `.invalidCredentials` (same answer for unknown email and wrong password).
    public func login(email: String, password: String, client: String) async throws -> (token: String, expiresAt: Double, account: Account) {
        let now = clock.now()
        for (limiter, key) in [(clientLimiter, client), (accountLimiter, email.lowercased())] where !limiter.take(key, now: now) {
            throw AccountError.tooManyAttempts(retryAfter: limiter.retryAfter(key, now: now))
        }
        let account = try await store.account(email: email)
        let matches = try await verify(password, hash: account?.passwordHash ?? decoyHash)
        guard let account, matches, !account.disabled else { throw AccountError.invalidCredentials }
        let token = Self.randomToken()
        let expiry = now + settings.tokenLifetime
        try await store.insertToken(hash: Self.sha256(token), accountID: account.id, expiresAt: expiry)
        return (token, expiry, account)
    }

    /// The identity behind a bearer token.
    /// - Throws: `AccountError.invalidToken` for unknown, expired or disabled-account tokens.
    public func authenticate(token: String) async throws -> Identity {
        let hash = Self.sha256(token)
        if let identity = verified.identity(for: hash, now: clock.now()) { return identity }
        let epoch = verified.epoch
        guard let stored = try await store.token(hash: hash) else { throw AccountError.invalidToken }
        guard stored.expiresAt > clock.now() else {
            try await store.deleteToken(hash: hash)
            throw AccountError.invalidToken
        }
        guard let account = try await store.account(id: stored.accountID), !account.disabled else {
            throw AccountError.invalidToken
        }
        let identity = Identity(accountID: account.id, role: account.role, tokenHash: hash)
        verified.insert(hash, identity, expiresAt: stored.expiresAt, ifEpoch: epoch)
        return identity
    }

    /// The identity behind a bearer token already verified and cached (`VerifiedTokens`), without the store:
    /// nil when the token is not in the cache (the caller then takes the full path, `authenticate`).
    func cachedIdentity(token: String) -> Identity? {
        cachedIdentity(tokenHash: Self.sha256(token))
    }

    /// `cachedIdentity(token:)` for a token whose hash (`sha256`) the caller already has.
    func cachedIdentity(tokenHash: String) -> Identity? {
        verified.identity(for: tokenHash, now: clock.now())
    }

    public func logout(_ identity: Identity) async throws {
        try await store.deleteToken(hash: identity.tokenHash)
        verified.remove(hash: identity.tokenHash)
    }

    // MARK: - Profile

    /// Changes the caller's own name and password. A new password needs the current one (its
    /// checks count against the account's login limit) and ends every other session of the account.
    /// - Throws: `AccountError.invalidInput`, `.wrongPassword`, `.tooManyAttempts`, `.unknownAccount`.
    public func updateProfile(of identity: Identity, name: String?, currentPassword: String?,
                              newPassword: String?) async throws -> Account {
        guard var account = try await store.account(id: identity.accountID) else { throw AccountError.unknownAccount }
        if let name {
            try Self.checkName(name)
            account.name = name
        }
        if let newPassword {
            guard let currentPassword else {
                throw AccountError.invalidInput("current_password is required to change the password", field: "current_password")
            }
            try Self.checkPassword(newPassword, field: "new_password")
            let now = clock.now()
            guard accountLimiter.take(account.email, now: now) else {
                throw AccountError.tooManyAttempts(retryAfter: accountLimiter.retryAfter(account.email, now: now))
            }
            guard try await verify(currentPassword, hash: account.passwordHash) else { throw AccountError.wrongPassword }
            account.passwordHash = try await hash(newPassword)
        }
        try await store.update(account)
        if newPassword != nil {
            try await store.deleteTokens(accountID: account.id, except: identity.tokenHash)
            verified.remove(accountID: account.id, except: identity.tokenHash)
        }
        return account
    }

    // MARK: - Password reset and invalidation

    /// Writes a one-time reset token to the outbox if the account exists (the answer is the same either way).
    public func requestPasswordReset(email: String) async throws {
        guard let account = try await store.account(email: email), !account.disabled else { return }
        let token = Self.randomToken()
        let now = clock.now()
        try await store.insertResetToken(hash: Self.sha256(token), accountID: account.id,
                                         expiresAt: now + settings.resetTokenLifetime)
        try await store.enqueue(OutboxMessage(
            recipient: account.email, subject: "Password reset",
            body: "Your one-time password reset token: \(token)", createdAt: now))
    }

    /// Sets a new password with a one-time token; every session of the account ends.
    public func resetPassword(token: String, newPassword: String) async throws {
        try Self.checkPassword(newPassword)
        guard let id = try await store.consumeResetToken(hash: Self.sha256(token), now: clock.now()),
              var account = try await store.account(id: id) else { throw AccountError.invalidResetToken }
        account.passwordHash = try await hash(newPassword)
        try await store.update(account)
        try await store.deleteTokens(accountID: id)
        verified.remove(accountID: id)
    }

    /// Ends every session and makes the password match nothing; the owner needs a reset to come back.
    public func invalidateCredentials(accountID: Int) async throws {
        guard var account = try await store.account(id: accountID) else { throw AccountError.unknownAccount }
        account.passwordHash = "!"
        try await store.update(account)
        try await store.deleteTokens(accountID: accountID)
        verified.remove(accountID: accountID)
    }

    /// Disables the account for good (a removed driver) and ends its sessions.
    public func disable(accountID: Int) async throws {
        guard var account = try await store.account(id: accountID) else { throw AccountError.unknownAccount }
        account.disabled = true
        try await store.update(account)
        try await store.deleteTokens(accountID: accountID)
        verified.remove(accountID: accountID)
    }

    // MARK: - Tokens

    /// 32 bytes from the system's cryptographic generator, base64url without padding.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Lower-case hex of the token's SHA-256. Runs on every authenticated request, so it
    /// writes the 64 digits directly (`String(format:)` per byte was a fifth of the server's CPU).
    static func sha256(_ token: String) -> String {
        let digest = SHA256.hash(data: Data(token.utf8))
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 64) { buffer in
            var i = 0
            for byte in digest {
                buffer[i] = digits[Int(byte >> 4)]
                buffer[i + 1] = digits[Int(byte & 0x0f)]
                i += 2
            }
            return i
        }
    }
}
