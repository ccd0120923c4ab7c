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
        let fixture = try await ServiceFixture()
        let expected = OpenAPIDocument.document(for: await fixture.host.city)
        try await fixture.test { client in
            let response = try await client.call(.get, "/openapi.json")
            #expect(response.status == .ok && response.headers[.contentType] == "application/json")
            #expect(Data(response.body.readableBytesView) == expected)
        }
    }

    @Test("the served document bounds every coordinate by the current city: 0 … width, 0 … height")
    func servedCoordinatesAreBoundedByTheCity() async throws {
        let fixture = try await ServiceFixture()
        let city = await fixture.host.city
        try await fixture.test { client in
            let response = try await client.call(.get, "/openapi.json")
            let root = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            let schemas = try #require((root["components"] as? [String: Any])?["schemas"] as? [String: Any])
            let point = try #require((schemas["Point"] as? [String: Any])?["properties"] as? [String: [String: Any]])
            #expect(number(point["x"]?["minimum"]) == 0 && number(point["x"]?["maximum"]) == city.width)
            #expect(number(point["y"]?["minimum"]) == 0 && number(point["y"]?["maximum"]) == city.height)
            let paths = try #require(root["paths"] as? [String: [String: Any]])
            for path in ["/v1/eta", "/v1/queue"] {
                let parameters = try #require((paths[path]?["get"] as? [String: Any])?["parameters"] as? [[String: Any]])
                let x = try #require(parameters.first { $0["name"] as? String == "x" }?["schema"] as? [String: Any])
                let y = try #require(parameters.first { $0["name"] as? String == "y" }?["schema"] as? [String: Any])
                #expect(number(x["minimum"]) == 0 && number(x["maximum"]) == city.width, "\(path) x")
                #expect(number(y["minimum"]) == 0 && number(y["maximum"]) == city.height, "\(path) y")
            }
        }
    }

    @Test("a documented path asked with an undocumented method answers 405 with Allow; an unknown path 404")
    func undocumentedMethodIs405WithAllow() async throws {
        try await ServiceFixture().test { client in
            let patch = try await client.call(.patch, "/v1/rides/7")
            #expect(patch.status == .methodNotAllowed)
            #expect(patch.headers[.allow] == "GET, DELETE")
            #expect(patch.headers[.contentType] == "application/problem+json")
            let put = try await client.call(.put, "/v1/eta")
            #expect(put.status == .methodNotAllowed && put.headers[.allow] == "GET")
            let unknown = try await client.call(.get, "/v1/no-such-thing")
            #expect(unknown.status == .notFound && unknown.headers[.allow] == nil)
        }
    }
}

/// A JSON number as read by `JSONSerialization` (an `Int` or a `Double`, depending on how it is written).
private func number(_ value: Any?) -> Double? {
    switch value {
    case let value as Int: Double(value)
    case let value as Double: value
    default: nil
    }
}
