import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// The web console's files: served from the bundle with their types, revalidated by ETag, only
/// files of the folder, and every file a page names is there.
@Suite struct WebConsoleTests {
    static let pages = ["index.html", "customer.html", "driver.html", "operator.html", "planner.html"]

    @Test func theRootIsTheIndexPageWithItsTypeTagAndPolicy() async throws {
        try await ServiceFixture().test { client in
            let response = try await client.call(.get, "/")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/html; charset=utf-8")
            #expect(response.headers[.cacheControl] == "no-cache")
            #expect(response.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
            #expect(response.text.contains("/web/customer.html"))
            let etag = try #require(response.headers[.eTag])
            let again = try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            let changed = try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: "\"other\""])
            #expect(changed.status == .ok)
        }
    }

    @Test func scriptsAndStylesGoOutWithTheirContentTypes() async throws {
        try await ServiceFixture().test { client in
            let script = try await client.call(.get, "/web/api.js")
            let style = try await client.call(.get, "/web/style.css")
            let page = try await client.call(.get, "/web/driver.html")
            #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(style.headers[.contentType] == "text/css; charset=utf-8")
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
        }
    }

    @Test func onlyFilesOfTheFolderAreServed() async throws {
        try await ServiceFixture().test { client in
            for path in ["/web/nothing.js", "/web/..%2Fopenapi.json", "/web/.hidden"] {
                let response = try await client.call(.get, path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.headers[.contentType] == "application/problem+json", "\(path)")
            }
        }
    }

    /// Every `/web/NAME` a page or module refers to (scripts, styles, imports, links) is served.
    @Test func everyFileAPageNamesIsServed() async throws {
        let console = WebConsole.shared
        #expect(Set(Self.pages).isSubset(of: console.files.keys))
        var named: Set<String> = []
        for (name, file) in console.files where name.hasSuffix(".html") || name.hasSuffix(".js") {
            let text = String(buffer: file.bytes)
            for match in text.matches(of: #//web/([A-Za-z0-9_.-]+)/#) { named.insert(String(match.1)) }
            for match in text.matches(of: #/from '\./([A-Za-z0-9_.-]+)'/#) { named.insert(String(match.1)) }
        }
        #expect(!named.isEmpty)
        #expect(named.subtracting(console.files.keys).isEmpty, "named but missing: \(named.subtracting(console.files.keys))")
    }

    @Test func theETagChangesWithTheBytes() {
        #expect(WebConsole.etag(of: Data("a".utf8)) != WebConsole.etag(of: Data("b".utf8)))
        #expect(WebConsole.etag(of: Data("ab".utf8)) == WebConsole.etag(of: Data("ab".utf8)))
    }
}
