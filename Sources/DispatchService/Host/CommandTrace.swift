import DispatchCore
import Tracing

/// What the host's tracing spans are called and carry (swift-distributed-tracing).
///
/// - `dispatch.<op>` (`op` as in the command log: `requestRide`, `accept`, `timerFired`, …) around each
///   command the host handles, storing it included: `dispatch.request_id`, `dispatch.driver_id`,
///   `dispatch.customer_id` when the command names them, `dispatch.effects` (the effect count) when the
///   core accepts it, `dispatch.error` (the `DispatchError` case, or `storageUnavailable`) when it is refused.
/// - `store.commit` around each command-log commit (one transaction, a batch of commands): `store.backend`
///   (`sqlite`, `postgresql`, `memory`) and `store.batch_size`; a child of the span of the command whose
///   task wrote the batch.
///
/// Invariant: a span ends with exactly one of `dispatch.effects` and `dispatch.error`.
enum CommandTrace {
    /// The span name of a command: `dispatch.` and its log op.
    static func name(of command: Command) -> String {
        "dispatch." + CommandCoding.mirror(of: command).op
    }

    /// Sets the ids the command names.
    static func describe(_ command: Command, on span: some Span) {
        guard span.isRecording else { return }
        let coded = CommandCoding.mirror(of: command)
        if let request = coded.request { span.attributes["dispatch.request_id"] = request }
        if let driver = coded.driver { span.attributes["dispatch.driver_id"] = driver }
        if let customer = coded.customer { span.attributes["dispatch.customer_id"] = customer }
    }

    static func accepted(_ effects: [Effect], on span: some Span) {
        span.attributes["dispatch.effects"] = effects.count
    }

    static func refused(_ error: any Error, on span: some Span) {
        switch error {
        case let refusal as DispatchError: span.attributes["dispatch.error"] = caseName(of: refusal)
        case is HostError: span.attributes["dispatch.error"] = "storageUnavailable"
        default: span.attributes["dispatch.error"] = "\(type(of: error))"
        }
    }

    /// The case of a refusal, without its payload (a low-cardinality attribute value).
    static func caseName(of error: DispatchError) -> String {
        switch error {
        case .invalidConfiguration: "invalidConfiguration"
        case .unknownDriver: "unknownDriver"
        case .duplicateDriver: "duplicateDriver"
        case .unknownRequest: "unknownRequest"
        case .duplicateRequest: "duplicateRequest"
        case .positionOutsideCity: "positionOutsideCity"
        case .invalidTime: "invalidTime"
        case .timeWentBackwards: "timeWentBackwards"
        case .illegalDriverTransition: "illegalDriverTransition"
        case .illegalRequestTransition: "illegalRequestTransition"
        case .notOfferedToDriver: "notOfferedToDriver"
        case .offerExpired: "offerExpired"
        case .customerHasOpenRequest: "customerHasOpenRequest"
        case .reservationTooSoon: "reservationTooSoon"
        case .cancellationWindowClosed: "cancellationWindowClosed"
        case .notAParty: "notAParty"
        case .reportNotAllowed: "reportNotAllowed"
        case .invalidPatience: "invalidPatience"
        case .cityInUse: "cityInUse"
        }
    }
}
