import Foundation
import Logging
import Testing
@testable import DispatchService

/// The `tracing:` block of the service config: read strictly, overridable from the environment
/// (`CITYSIM_TRACING_*`, and OpenTelemetry's `OTEL_EXPORTER_OTLP_*`, `OTEL_TRACES_SAMPLER*`, `OTEL_SERVICE_NAME`), validated.
@Suite struct TracingConfigTests {
    typealias Reading = ServiceConfigReadingTests

    @Test func anUnknownKeyUnderTracingIsAnErrorNamingIt() throws {
        let folder = try TemporaryFolder()
        let error = try #require(Reading.error(Reading.minimal + "\ntracing: { otlp_endpoint: \"http://c:4318\", batchsize: 10 }\n",
                                               in: folder))
        #expect(error.file == folder.path("service.yaml") && error.line == 6)
        #expect(error.message.hasPrefix("tracing.batchsize: unknown key 'batchsize' (known: otlp_endpoint, service_name, batch_size,"))
    }

    @Test func theTracingBlockIsReadIntoItsSettings() throws {
        let folder = try TemporaryFolder()
        let config = try Reading.load(Reading.minimal + """

            tracing: { otlp_endpoint: "http://collector:4318", service_name: dispatch, batch_size: 64, flush_interval_ms: 250, queue_limit: 1024 }
            """, in: folder)
        #expect(config.tracing == TracingSettings(otlpEndpoint: "http://collector:4318", serviceName: "dispatch",
                                                  batchSize: 64, flushIntervalMs: 250, queueLimit: 1024))
    }

    @Test func theEnvironmentSetsTracingAndCitysimVariablesWinOverOpenTelemetryOnes() throws {
        let folder = try TemporaryFolder()
        let standard = try Reading.load(Reading.minimal, in: folder, environment: [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318", "OTEL_SERVICE_NAME": "from-otel"])
        #expect(standard.tracing?.otlpEndpoint == "http://otel:4318" && standard.tracing?.serviceName == "from-otel")
        let both = try Reading.load(Reading.minimal + "\ntracing: { otlp_endpoint: \"http://file:4318\" }\n", in: folder, environment: [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318", "CITYSIM_TRACING_OTLP_ENDPOINT": "http://citysim:4318",
            "CITYSIM_TRACING_BATCH_SIZE": "32"])
        #expect(both.tracing?.otlpEndpoint == "http://citysim:4318" && both.tracing?.batchSize == 32)
        let none = try Reading.load(Reading.minimal, in: folder)
        #expect(none.tracing == nil, "no tracing block and no variable: no tracer")
    }

    @Test func badTracingValuesAreErrorsNamingTheFileAndKey() throws {
        let folder = try TemporaryFolder()
        let scheme = try #require(Reading.error(Reading.minimal + "\ntracing: { otlp_endpoint: \"localhost:4318\" }\n", in: folder))
        #expect(scheme.file == folder.path("service.yaml"))
        #expect(scheme.message.hasPrefix("tracing.otlp_endpoint: expected an http:// or https:// URL"))
        let batch = try #require(Reading.error(Reading.minimal + "\ntracing: { batch_size: 0 }\n", in: folder))
        #expect(batch.message == "tracing.batch_size: must be at least 1 (got 0)")
        let queue = try #require(Reading.error(Reading.minimal + "\ntracing: { batch_size: 100, queue_limit: 10 }\n", in: folder))
        #expect(queue.message.hasPrefix("tracing.queue_limit: must be at least batch_size"))
        let kind = try #require(Reading.error(Reading.minimal + "\ntracing: { flush_interval_ms: soon }\n", in: folder))
        #expect(kind.message == "tracing.flush_interval_ms: expected an integer (got 'soon')")
    }

    /// The export target (URL and timeout) the environment and `yaml` resolve to.
    static func target(_ environment: [String: String], yaml: String = "") throws -> OTLPExportTarget? {
        let folder = try TemporaryFolder()
        let config = try Reading.load(Reading.minimal + yaml, in: folder, environment: environment)
        return config.tracing.flatMap(OTLPExportTarget.init(settings:))
    }

    @Test func aTracesEndpointIsUsedAsGivenAndWinsOverTheBaseEndpoint() throws {
        #expect(try Self.target(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318/"])?.url == "http://otel:4318/v1/traces")
        #expect(try Self.target(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318",
                                 "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "https://ingest.example/api/spans"])?.url
                == "https://ingest.example/api/spans")
        #expect(try Self.target([:], yaml: "\ntracing: { otlp_endpoint: \"http://file:4318\", otlp_traces_endpoint: \"http://file:4318/t\" }\n")?
                    .url == "http://file:4318/t")
        #expect(try Self.target(["CITYSIM_TRACING_OTLP_TRACES_ENDPOINT": "http://citysim:4318/t",
                                 "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://otel:4318/t"])?.url == "http://citysim:4318/t")
        #expect(try Self.target(["OTEL_SERVICE_NAME": "no-endpoint"]) == nil, "no endpoint of either kind: no tracing")
    }

    @Test func theTracesTimeoutWinsOverTheGeneralOneAndTheDefaultIsTenSeconds() throws {
        let endpoint = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318"]
        #expect(try Self.target(endpoint)?.timeout == .seconds(10))
        #expect(try Self.target(endpoint.merging(["OTEL_EXPORTER_OTLP_TIMEOUT": "2500"]) { $1 })?.timeout == .milliseconds(2500))
        #expect(try Self.target(endpoint.merging(["OTEL_EXPORTER_OTLP_TIMEOUT": "2500",
                                                  "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "4000"]) { $1 })?.timeout == .seconds(4))
        #expect(try Self.target(endpoint.merging(["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "4000",
                                                  "CITYSIM_TRACING_OTLP_TIMEOUT_MS": "700"]) { $1 })?.timeout == .milliseconds(700))
    }

    @Test func aBadValueFromAnOpenTelemetryVariableIsAnErrorNamingTheVariable() throws {
        let folder = try TemporaryFolder()
        let zero = try #require(Reading.error(Reading.minimal, in: folder, environment: ["OTEL_EXPORTER_OTLP_TIMEOUT": "0"]))
        #expect(zero.message == "tracing.otlp_timeout_ms: must be at least 1 (got 0)" && zero.variable == "OTEL_EXPORTER_OTLP_TIMEOUT")
        #expect("\(zero)".hasSuffix("(set by OTEL_EXPORTER_OTLP_TIMEOUT)"))
        let word = try #require(Reading.error(Reading.minimal, in: folder, environment: ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT": "soon"]))
        #expect(word.message == "tracing.otlp_timeout_ms: expected an integer (got 'soon')")
        #expect(word.variable == "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT")
        let endpoint = try #require(Reading.error(Reading.minimal, in: folder,
                                                  environment: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "collector:4318"]))
        #expect(endpoint.message.hasPrefix("tracing.otlp_traces_endpoint: expected an http:// or https:// URL"))
        #expect(endpoint.variable == "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
        let fromFile = try #require(Reading.error(Reading.minimal + "\ntracing: { otlp_timeout_ms: 0 }\n", in: folder))
        #expect(fromFile.variable == nil, "a bad key of the file names no variable")
    }

    @Test func aMalformedHeaderListIsAnErrorNamingTheVariableAndTheReasonButNotTheValue() throws {
        let folder = try TemporaryFolder()
        let general = try #require(Reading.error(Reading.minimal, in: folder, environment: [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318", "OTEL_EXPORTER_OTLP_HEADERS": "Bearer s3cret"]))
        #expect(general.message == "tracing.otlp_headers: entry 1 has no '=' (expected key=value pairs separated by commas)")
        #expect(general.variable == "OTEL_EXPORTER_OTLP_HEADERS" && !"\(general)".contains("s3cret"))
        let traces = try #require(Reading.error(Reading.minimal, in: folder, environment: [
            "OTEL_EXPORTER_OTLP_HEADERS": "x-tenant=citysim", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "authorization=s3cret%zz"]))
        #expect(traces.message == "tracing.otlp_traces_headers: entry 1 ('authorization'): the value has a malformed %-escape")
        #expect(traces.variable == "OTEL_EXPORTER_OTLP_TRACES_HEADERS" && !"\(traces)".contains("s3cret"))
        let file = try #require(Reading.error(Reading.minimal + "\ntracing: { otlp_headers: \"a=1,b\" }\n", in: folder))
        #expect(file.message.hasPrefix("tracing.otlp_headers: entry 2 has no '='") && file.line == 6 && file.variable == nil)
    }

    @Test func headerListsAreReadFromTheFileAndTheEnvironment() throws {
        let folder = try TemporaryFolder()
        let config = try Reading.load(Reading.minimal + "\ntracing: { otlp_headers: \"x-tenant=file\" }\n", in: folder,
                                      environment: ["OTEL_EXPORTER_OTLP_TRACES_HEADERS": "authorization=Bearer%20t"])
        #expect(config.tracing?.otlpHeaders == (try OTLPHeaders(parsing: "x-tenant=file")))
        #expect(config.tracing?.otlpTracesHeaders == (try OTLPHeaders(parsing: "authorization=Bearer t")))
    }

    @Test func headerListsCanComeFromSecretFilesNamedInTheFileOrTheEnvironment() throws {
        let folder = try TemporaryFolder()
        try "authorization=Bearer%20from-file\n".write(toFile: folder.path("otlp-token"), atomically: true, encoding: .utf8)
        let inYAML = try Reading.load(Reading.minimal + "\ntracing: { otlp_headers_file: \(folder.path("otlp-token")) }\n",
                                      in: folder)
        #expect(inYAML.tracing?.otlpHeaders == (try OTLPHeaders(parsing: "authorization=Bearer%20from-file")))
        let inEnvironment = try Reading.load(Reading.minimal, in: folder, environment: [
            "CITYSIM_TRACING_OTLP_TRACES_HEADERS_FILE": folder.path("otlp-token")])
        #expect(inEnvironment.tracing?.otlpTracesHeaders == (try OTLPHeaders(parsing: "authorization=Bearer%20from-file")))
        // The standard variable replaces the file named in the YAML, as a `CITYSIM_` one would.
        let replaced = try Reading.load(Reading.minimal + "\ntracing: { otlp_headers_file: \(folder.path("otlp-token")) }\n",
                                        in: folder, environment: ["OTEL_EXPORTER_OTLP_HEADERS": "x-tenant=env"])
        #expect(replaced.tracing?.otlpHeaders == (try OTLPHeaders(parsing: "x-tenant=env")))
        let both = try #require(Reading.error(Reading.minimal + """

            tracing: { otlp_headers: "a=1", otlp_headers_file: \(folder.path("otlp-token")) }

            """, in: folder))
        #expect(both.message == "tracing.otlp_headers_file: give either otlp_headers or otlp_headers_file, not both")
        try "Bearer s3cret\n".write(toFile: folder.path("bad-token"), atomically: true, encoding: .utf8)
        let malformed = try #require(Reading.error(Reading.minimal + "\ntracing: { otlp_headers_file: \(folder.path("bad-token")) }\n",
                                                   in: folder))
        #expect(malformed.message.hasPrefix("tracing.otlp_headers: entry 1 has no '='") && !"\(malformed)".contains("s3cret"))
    }

    @Test func theSamplerIsReadFromOTELTracesSamplerAndItsArgument() throws {
        let folder = try TemporaryFolder()
        func sampler(_ environment: [String: String], yaml: String = "") throws -> TraceSampler? {
            try Reading.load(Reading.minimal + yaml, in: folder, environment: environment).tracing?.traceSampler
        }
        #expect(try sampler(["OTEL_TRACES_SAMPLER": "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG": "0.25"])
                == .parentBased(root: .traceIDRatio(0.25)))
        #expect(try sampler(["OTEL_TRACES_SAMPLER": "always_off"]) == .alwaysOff)
        #expect(try sampler([:], yaml: "\ntracing: { sampler: traceidratio, sampler_arg: 0.1 }\n") == .traceIDRatio(0.1))
        #expect(try sampler(["OTEL_TRACES_SAMPLER": "always_off", "CITYSIM_TRACING_SAMPLER": "always_on"]) == .alwaysOn)
        #expect(try sampler(["OTEL_SERVICE_NAME": "x"]) == .parentBased(root: .alwaysOn))
    }

    @Test func anUnknownSamplerOrABadRatioIsAnErrorNamingTheVariable() throws {
        let folder = try TemporaryFolder()
        let name = try #require(Reading.error(Reading.minimal, in: folder, environment: ["OTEL_TRACES_SAMPLER": "jaeger_remote"]))
        #expect(name.message == "tracing.sampler: expected one of always_on, always_off, traceidratio, parentbased_always_on, "
                + "parentbased_always_off, parentbased_traceidratio (got 'jaeger_remote')")
        #expect(name.variable == "OTEL_TRACES_SAMPLER")
        let range = try #require(Reading.error(Reading.minimal, in: folder, environment: [
            "OTEL_TRACES_SAMPLER": "traceidratio", "OTEL_TRACES_SAMPLER_ARG": "1.5"]))
        #expect(range.message == "tracing.sampler_arg: must be a ratio within 0 and 1 (got 1.5)")
        #expect(range.variable == "OTEL_TRACES_SAMPLER_ARG")
        let negative = try #require(Reading.error(Reading.minimal + "\ntracing: { sampler_arg: -0.1 }\n", in: folder))
        #expect(negative.message.hasPrefix("tracing.sampler_arg: must be a ratio within 0 and 1"))
        let word = try #require(Reading.error(Reading.minimal, in: folder, environment: ["OTEL_TRACES_SAMPLER_ARG": "half"]))
        #expect(word.message == "tracing.sampler_arg: expected a number (got 'half')")
    }

    @Test func theServicesTracerSamplesAsConfigured() throws {
        let folder = try TemporaryFolder()
        let config = try Reading.load(Reading.minimal, in: folder, environment: [
            "OTEL_EXPORTER_OTLP_ENDPOINT": "http://otel:4318", "OTEL_TRACES_SAMPLER": "always_off"])
        let settings = try #require(config.tracing)
        let tracing = try #require(ServiceTracing(settings: settings, metrics: ServiceMetrics(), logger: Logger(label: "test")))
        #expect(tracing.tracer.sampler == .alwaysOff)
        tracing.tracer.startSpan("unsampled").end()
        #expect(tracing.tracer.queue.pending == 0)
    }

    @Test func anUnknownCompressionIsAnErrorNamingTheVariable() throws {
        let folder = try TemporaryFolder()
        let error = try #require(Reading.error(Reading.minimal, in: folder, environment: ["OTEL_EXPORTER_OTLP_COMPRESSION": "zstd"]))
        #expect(error.message == "tracing.otlp_compression: expected gzip or none (got 'zstd')")
        #expect(error.variable == "OTEL_EXPORTER_OTLP_COMPRESSION")
    }
}
