import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import DispatchService

/// `Resources/openapi.json` documents exactly the routes the router has, and is served to anyone.
@Suite struct OpenAPITests {
    static func document() throws -> [String: Any] {
        let data = try #require(OpenAPIDocument.data)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// "METHOD /path" of every operation in the document.
    static func documentedOperations() throws -> Set<String> {
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        let methods: Set = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
        return Set(paths.flatMap { path, item in
            item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" }
        })
    }

    @Test func everyRegisteredRouteIsDocumentedWithItsMethodAndNothingElseIs() async throws {
        let fixture = try await ServiceFixture()
        let router = buildRouter(host: fixture.host, accounts: fixture.service.accounts)
        // The web console's pages and files are not API routes (WebConsole serves them).
        let registered = Set(router.routes.map { "\($0.method.rawValue) \($0.path)" })
            .subtracting(["GET /", "GET /web/{file}"])
        #expect(registered.contains("GET /v1/queue") && registered.contains("PATCH /v1/me"))  // the listing works
        let documented = try Self.documentedOperations()
        #expect(registered.subtracting(documented).isEmpty,
                "routes without documentation: \(registered.subtracting(documented).sorted())")
        #expect(documented.subtracting(registered).isEmpty,
                "documented routes the router lacks: \(documented.subtracting(registered).sorted())")
    }

    @Test func everyReferenceResolvesAndErrorsUseTheProblemSchema() throws {
        let document = try Self.document()
        let text = String(decoding: try #require(OpenAPIDocument.data), as: UTF8.self)
        #expect((document["openapi"] as? String)?.hasPrefix("3.1") == true)
        let components = try #require(document["components"] as? [String: [String: Any]])
        let references = text.components(separatedBy: "\"$ref\": \"#/components/").dropFirst()
            .map { $0.prefix { $0 != "\"" }.split(separator: "/").map(String.init) }
        #expect(!references.isEmpty)
        for reference in references {
            #expect(components[reference[0]]?[reference[1]] != nil, "unresolved \(reference)")
        }
        let problem = try #require(components["schemas"]?["Problem"] as? [String: Any])
        #expect(problem["required"] as? [String] == ["type", "title", "status", "detail"])
    }

    @Test func theDocumentIsServedWithoutLogin() async throws {
        try await ServiceFixture().test { client in
            let response = try await client.call(.get, "/openapi.json")
            #expect(response.status == .ok && response.headers[.contentType] == "application/json")
            #expect(Data(response.body.readableBytesView) == OpenAPIDocument.data)
        }
    }
}
