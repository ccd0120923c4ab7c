import DispatchCore
import Foundation

/// Records a run for the simulation viewer: every change of a taxi's state or position and every
/// request's appearance and change of state, as fixed 16-byte little-endian records in time order
/// (`TraceRecord`), fed by one hook after each command the simulator hands the core.
///
/// Invariant: records are appended in simulated-time order; a taxi record is written only when the
/// taxi's state or position differs from its last record, so a taxi's position between two of its
/// records is the straight line between them (the model's drives) or the first (standing). Same
/// scenario and seed give the same bytes.
public final class TraceRecorder {
    public private(set) var bytes: [UInt8] = []
    public private(set) var recordCount = 0
    private var lastTaxi: [Int: (state: UInt8, x: UInt16, y: UInt16)] = [:]
    private var touched: [DriverID] = []

    public init() { bytes.reserveCapacity(1 << 20) }

    /// Notes what a command accepted by the core changed.
    public func record(_ command: Command, effects: [Effect], at time: Double, core: DispatchCore) {
        touched.removeAll(keepingCapacity: true)
        switch command {
        case .startShift(let d, _), .endShift(let d), .setAvailable(let d, _), .updatePosition(let d, _),
             .accept(let d, _), .decline(let d, _):
            touched.append(d)
        case .pickedUp(let d, let r):
            touched.append(d)
            request(r, .pickedUp, at: time)
        case .droppedOff(let d, _, _): touched.append(d)
        case .requestRide(let r, _, let origin, _, _): appear(r, origin, reservation: false, at: time)
        case .reserveRide(let r, _, let origin, _, _): appear(r, origin, reservation: true, at: time)
        default: break
        }
        for effect in effects {
            switch effect {
            case .offer(let d, let r, _): touched.append(d); request(r, .offered, at: time)
            case .offerWithdrawn(let d, _), .assignmentRevoked(let d, _): touched.append(d)
            case .customerNotified(let r, _, let d, _), .reassigned(let r, _, let d, _):
                touched.append(d)
                request(r, .accepted, at: time)
            case .noTaxiAvailable(let r, _): request(r, .rejected, at: time)
            case .waitingForTaxi(let r, _): request(r, .pending, at: time)
            case .requestExpired(let r, _): request(r, .expired, at: time)
            case .requestCancelled(let r): request(r, .cancelled, at: time)
            case .rideCompleted(let r, let d): touched.append(d); request(r, .completed, at: time)
            default: break
            }
        }
        for d in touched { taxi(d, at: time, core: core) }
    }

    private func taxi(_ d: DriverID, at time: Double, core: DispatchCore) {
        guard let status = core.status(of: d), let position = core.position(of: d) else { return }
        let state = TraceRecord.TaxiState(status).rawValue
        let x = TraceRecord.metres(position.x), y = TraceRecord.metres(position.y)
        if let last = lastTaxi[d.rawValue], last.state == state, last.x == x, last.y == y { return }
        lastTaxi[d.rawValue] = (state, x, y)
        append(TraceRecord(time: time, kind: .taxi, state: state, id: d.rawValue, x: x, y: y))
    }

    private func appear(_ r: RequestID, _ origin: Position, reservation: Bool, at time: Double) {
        append(TraceRecord(time: time, kind: .request,
                           state: (reservation ? TraceRecord.RequestState.reserved : .pending).rawValue,
                           id: r.rawValue, x: TraceRecord.metres(origin.x), y: TraceRecord.metres(origin.y)))
    }

    private func request(_ r: RequestID, _ state: TraceRecord.RequestState, at time: Double) {
        append(TraceRecord(time: time, kind: .requestState, state: state.rawValue, id: r.rawValue, x: 0, y: 0))
    }

    private func append(_ record: TraceRecord) {
        record.write(into: &bytes)
        recordCount += 1
    }
}

/// One record of a trace: 16 bytes, little-endian — time (Float32, simulated seconds from the
/// start), id (UInt32: a driver or a request), x and y (UInt16, whole metres from the south-west
/// corner), kind (UInt8), state (UInt8), 2 bytes reserved (0).
///
/// Invariant: `TraceViewer`'s page reads exactly this layout (`viewer.js`, `RECORD_BYTES`).
public struct TraceRecord: Equatable, Sendable {
    public static let size = 16

    public enum Kind: UInt8, Sendable { case taxi = 1, request = 2, requestState = 3 }

    public enum TaxiState: UInt8, Sendable {
        case offShift = 0, unavailable, available, offered, toPickup, onRide
        init(_ status: DriverStatus) {
            switch status {
            case .offShift: self = .offShift
            case .unavailable: self = .unavailable
            case .available: self = .available
            case .offered: self = .offered
            case .toPickup: self = .toPickup
            case .onRide: self = .onRide
            }
        }
    }

    public enum RequestState: UInt8, Sendable {
        case pending = 0, reserved, offered, accepted, pickedUp, completed, rejected, cancelled, expired
    }

    public var time: Float
    public var kind: Kind
    public var state: UInt8
    public var id: UInt32
    public var x: UInt16
    public var y: UInt16

    init(time: Double, kind: Kind, state: UInt8, id: Int, x: UInt16, y: UInt16) {
        self.time = Float(time)
        self.kind = kind
        self.state = state
        self.id = UInt32(truncatingIfNeeded: id)
        self.x = x
        self.y = y
    }

    /// Whole metres, clamped to what a UInt16 holds (cities up to 65 km a side).
    static func metres(_ value: Double) -> UInt16 {
        guard value.isFinite else { return 0 }
        return UInt16(max(0, min(65_535, value.rounded())))
    }

    func write(into bytes: inout [UInt8]) {
        withUnsafeBytes(of: time.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: id.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: x.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: y.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(kind.rawValue)
        bytes.append(state)
        bytes.append(0)
        bytes.append(0)
    }

    /// The records of a trace's bytes (for tests and tools).
    public static func read(_ bytes: [UInt8]) -> [TraceRecord] {
        stride(from: 0, to: bytes.count - size + 1, by: size).compactMap { at in
            func u16(_ o: Int) -> UInt16 { UInt16(bytes[at + o]) | UInt16(bytes[at + o + 1]) << 8 }
            func u32(_ o: Int) -> UInt32 { UInt32(u16(o)) | UInt32(u16(o + 2)) << 16 }
            guard let kind = Kind(rawValue: bytes[at + 12]) else { return nil }
            var record = TraceRecord(time: 0, kind: kind, state: bytes[at + 13], id: Int(u32(4)), x: u16(8), y: u16(10))
            record.time = Float(bitPattern: u32(0))
            return record
        }
    }
}
