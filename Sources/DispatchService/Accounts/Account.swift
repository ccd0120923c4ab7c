/// What a signed-in caller may do (requirements, Service: roles).
public enum Role: String, Codable, Sendable, CaseIterable {
    case customer, driver, admin
}

/// A registered person. Drivers' ids are also their `DriverID`s, customers'
/// ids their `CustomerID`s in the dispatch core.
public struct Account: Sendable, Equatable, Codable {
    public var id: Int
    /// Login name, unique, stored lower-cased.
    public var email: String
    public var name: String
    public var role: Role
    /// Bcrypt hash; "!" when the credentials were invalidated (nothing matches it).
    public var passwordHash: String
    /// Drivers only: the unique licence number and taxi code.
    public var licence: String?
    public var taxiCode: String?
    /// Removed or disabled accounts cannot log in; their tokens are gone.
    public var disabled: Bool

    public init(id: Int = 0, email: String, name: String, role: Role, passwordHash: String,
                licence: String? = nil, taxiCode: String? = nil, disabled: Bool = false) {
        self.id = id
        self.email = email
        self.name = name
        self.role = role
        self.passwordHash = passwordHash
        self.licence = licence
        self.taxiCode = taxiCode
        self.disabled = disabled
    }
}

/// A message the service would e-mail (there is no mail server): password
/// reset tokens are written here.
public struct OutboxMessage: Sendable, Equatable {
    public var recipient: String
    public var subject: String
    public var body: String
    public var createdAt: Double
}

/// Why the store refused a write.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A unique column (email, licence, taxi code, token) already has this value.
    case duplicate(String)
    case unknownAccount(Int)
    /// The logged command at `sequence` could not be read back.
    case corruptLog(sequence: Int64, reason: String)
    /// The archived ride `id` could not be read back.
    case corruptArchive(id: Int)
    /// The stored checkpoint `sequence` could not be read back whole.
    case corruptCheckpoint(sequence: Int64, reason: String)

    public var description: String {
        switch self {
        case .duplicate(let what): return "\(what) is already taken"
        case .unknownAccount(let id): return "unknown account \(id)"
        case .corruptLog(let sequence, let reason): return "command log entry \(sequence) is unreadable: \(reason)"
        case .corruptArchive(let id): return "archived ride \(id) is unreadable"
        case .corruptCheckpoint(let sequence, let reason): return "checkpoint \(sequence) is unreadable: \(reason)"
        }
    }
}
