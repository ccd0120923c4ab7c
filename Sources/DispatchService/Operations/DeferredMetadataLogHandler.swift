import Logging

/// A log handler that keeps its metadata as set and hands it to the wrapped handler only when a
/// message is written. swift-log's `StreamLogHandler` formats its metadata into a string every time
/// the metadata changes, and Hummingbird sets a request id on the logger of every request, so a
/// service that writes nothing per request still formatted a string per request.
///
/// Invariant: every message is written by `inner` with exactly the metadata this handler holds,
/// so the output is what `inner` alone would write.
struct DeferredMetadataLogHandler<Inner: LogHandler>: LogHandler {
    var inner: Inner
    var metadata: Logger.Metadata = [:]

    init(_ inner: Inner) {
        self.inner = inner
        metadata = inner.metadata
    }

    var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var writer = inner
        writer.metadata = metadata
        writer.log(event: event)
    }
}
