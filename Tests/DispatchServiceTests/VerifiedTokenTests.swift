import Testing
@testable import DispatchService

/// Tokens verified once are served from memory, and every way a token ends reaches the cache.
@Suite struct VerifiedTokenTests {
    @Test func aCachedTokenEndsWithLogout() async throws {
        try await ServiceFixture().test { client in
            let ana = try await client.customer("ana@example.com")
            #expect(try await client.call(.get, "/v1/me", token: ana.token).status == .ok)  // now cached
            #expect(try await client.call(.delete, "/v1/auth/token", token: ana.token).status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: ana.token).status == .unauthorized)
        }
    }

    @Test func aCachedDriverTokenEndsWhenTheAdministratorInvalidatesIt() async throws {
        try await ServiceFixture().test { client in
            let admin = try await client.admin()
            let driver = try await client.availableDriver("TX-1", adminToken: admin)
            #expect(try await client.call(.get, "/v1/driver", token: driver.token).status == .ok)  // now cached
            let invalidated = try await client.call(.post, "/v1/admin/drivers/\(driver.id)/invalidate", token: admin)
            #expect(invalidated.status == .noContent)
            #expect(try await client.call(.get, "/v1/driver", token: driver.token).status == .unauthorized)
        }
    }

    @Test func aCachedTokenExpires() async throws {
        let fixture = try await ServiceFixture()
        try await fixture.test { client in
            let ana = try await client.customer("ana@example.com")
            #expect(try await client.call(.get, "/v1/me", token: ana.token).status == .ok)
            fixture.clock.advance(by: 3601)  // the fixture's token lifetime is an hour
            #expect(try await client.call(.get, "/v1/me", token: ana.token).status == .unauthorized)
        }
    }

    @Test func aLookupThatRacedWithARemovalIsNotCached() {
        let cache = VerifiedTokens()
        let identity = Identity(accountID: 1, role: .customer, tokenHash: "h")
        let epoch = cache.epoch
        cache.remove(accountID: 1)  // e.g. invalidation while the store was read
        cache.insert("h", identity, expiresAt: 100, ifEpoch: epoch)
        #expect(cache.identity(for: "h", now: 0) == nil)
        cache.insert("h", identity, expiresAt: 100, ifEpoch: cache.epoch)
        #expect(cache.identity(for: "h", now: 0) == identity)
        #expect(cache.identity(for: "h", now: 100) == nil)
    }
}

/// The token hash stored in the database keeps its format (lower-case hex SHA-256).
@Suite struct TokenHashTests {
    @Test func theTokenHashIsLowerCaseHexSHA256() {
        #expect(AccountService.sha256("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(AccountService.sha256("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
