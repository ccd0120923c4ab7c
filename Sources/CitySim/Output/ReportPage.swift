/// The self-contained HTML report of a run (placeholder until the report lands).
enum ReportPage {
    static func html(for result: RunResult) -> String {
        "<!doctype html><title>\(result.summary.scenario)</title><pre>see summary.json</pre>"
    }
}
