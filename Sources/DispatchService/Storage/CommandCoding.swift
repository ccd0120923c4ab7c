import DispatchCore
import Foundation

/// One accepted command as the log keeps it: its place in the log, the core
/// time it was applied at, and the command itself.
public struct LoggedCommand: Sendable, Equatable {
    /// 1, 2, 3, … in the order the core applied the commands.
    public var sequence: Int64
    /// Core time, seconds since 1970.
    public var time: Double
    public var command: Command

    public init(sequence: Int64, time: Double, command: Command) {
        self.sequence = sequence
        self.time = time
        self.command = command
    }
}

/// JSON form of `Command` for the log: a flat Codable mirror, so the core
/// stays free of serialisation. `op` names the case; unused fields are absent.
///
/// ```swift
/// let json = try CommandCoding.encode(.setAvailable(DriverID(3), true))   // {"op":"setAvailable","driver":3,"available":true}
/// let back = try CommandCoding.decode(json)
/// ```
enum CommandCoding {
    struct Mirror: Codable, Equatable {
        var op: String
        var driver: Int?
        var request: Int?
        var customer: Int?
        var taxiCode: String?
        var x: Double?, y: Double?
        var toX: Double?, toY: Double?
        var available: Bool?
        var patience: Double?
        var meetingTime: Double?
        var timerKind: UInt8?
        var generation: UInt32?
        var reporter: String?
        /// `setCity`: the area and zone side (square side or hexagon edge), metres, and the zone shape
        /// (`square`, `hexagon`, `cut-squares`). Entries written before zone shapes have no `zoneShape`: they meant
        /// squares cut at the city edge, and replay as `cut-squares`.
        var width: Double?, height: Double?, zoneSide: Double?, zoneShape: String?

        init(op: String) { self.op = op }
    }

    enum CodingFailure: Error, CustomStringConvertible {
        case malformed(String)
        var description: String { switch self { case .malformed(let why): return "malformed logged command: \(why)" } }
    }

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }()

    /// The command's log entry: compact JSON with sorted keys (see `Mirror.json()`).
    static func encode(_ command: Command) throws -> String {
        try mirror(of: command).json()
    }

    static func decode(_ json: String) throws -> Command {
        try command(from: decoder.decode(Mirror.self, from: Data(json.utf8)))
    }

    // MARK: - Command → mirror

    static func mirror(of command: Command) -> Mirror {
        var m: Mirror
        switch command {
        case .addDriver(let d, let code):
            m = Mirror(op: "addDriver"); m.driver = d.rawValue; m.taxiCode = code
        case .startShift(let d, let p):
            m = Mirror(op: "startShift"); m.driver = d.rawValue; m.x = p.x; m.y = p.y
        case .endShift(let d):
            m = Mirror(op: "endShift"); m.driver = d.rawValue
        case .setAvailable(let d, let available):
            m = Mirror(op: "setAvailable"); m.driver = d.rawValue; m.available = available
        case .updatePosition(let d, let p):
            m = Mirror(op: "updatePosition"); m.driver = d.rawValue; m.x = p.x; m.y = p.y
        case .requestRide(let r, let c, let origin, let destination, let patience):
            m = Mirror(op: "requestRide"); m.request = r.rawValue; m.customer = c.rawValue
            m.x = origin.x; m.y = origin.y; m.toX = destination.x; m.toY = destination.y; m.patience = patience
        case .reserveRide(let r, let c, let origin, let destination, let meeting):
            m = Mirror(op: "reserveRide"); m.request = r.rawValue; m.customer = c.rawValue
            m.x = origin.x; m.y = origin.y; m.toX = destination.x; m.toY = destination.y; m.meetingTime = meeting
        case .cancel(let r, let c):
            m = Mirror(op: "cancel"); m.request = r.rawValue; m.customer = c.rawValue
        case .accept(let d, let r):
            m = Mirror(op: "accept"); m.driver = d.rawValue; m.request = r.rawValue
        case .decline(let d, let r):
            m = Mirror(op: "decline"); m.driver = d.rawValue; m.request = r.rawValue
        case .pickedUp(let d, let r):
            m = Mirror(op: "pickedUp"); m.driver = d.rawValue; m.request = r.rawValue
        case .droppedOff(let d, let r, let p):
            m = Mirror(op: "droppedOff"); m.driver = d.rawValue; m.request = r.rawValue; m.x = p.x; m.y = p.y
        case .timerFired(let t):
            m = Mirror(op: "timerFired"); m.request = t.request.rawValue; m.timerKind = t.kind.rawValue
            m.generation = t.generation
        case .report(let reporter, let r):
            m = Mirror(op: "report"); m.request = r.rawValue
            switch reporter {
            case .customer(let c): m.reporter = "customer"; m.customer = c.rawValue
            case .driver(let d): m.reporter = "driver"; m.driver = d.rawValue
            }
        case .queueStatus(let p):
            m = Mirror(op: "queueStatus"); m.x = p.x; m.y = p.y
        case .estimateArrival(let p):
            m = Mirror(op: "estimateArrival"); m.x = p.x; m.y = p.y
        case .setCity(let city):
            m = Mirror(op: "setCity"); m.width = city.width; m.height = city.height; m.zoneSide = city.zoneSide
            m.zoneShape = city.zoneShape.rawValue
        }
        return m
    }

    // MARK: - Mirror → command

    static func command(from m: Mirror) throws -> Command {
        func need<T>(_ value: T?, _ name: String) throws -> T {
            guard let value else { throw CodingFailure.malformed("\(m.op) without \(name)") }
            return value
        }
        func driver() throws -> DriverID { DriverID(try need(m.driver, "driver")) }
        func request() throws -> RequestID { RequestID(try need(m.request, "request")) }
        func customer() throws -> CustomerID { CustomerID(try need(m.customer, "customer")) }
        func at() throws -> Position { Position(x: try need(m.x, "x"), y: try need(m.y, "y")) }
        func to() throws -> Position { Position(x: try need(m.toX, "toX"), y: try need(m.toY, "toY")) }
        switch m.op {
        case "addDriver": return .addDriver(try driver(), taxiCode: try need(m.taxiCode, "taxiCode"))
        case "startShift": return .startShift(try driver(), at: try at())
        case "endShift": return .endShift(try driver())
        case "setAvailable": return .setAvailable(try driver(), try need(m.available, "available"))
        case "updatePosition": return .updatePosition(try driver(), try at())
        case "requestRide":
            return .requestRide(try request(), customer: try customer(), origin: try at(), destination: try to(),
                                patience: try need(m.patience, "patience"))
        case "reserveRide":
            return .reserveRide(try request(), customer: try customer(), origin: try at(), destination: try to(),
                                meetingTime: try need(m.meetingTime, "meetingTime"))
        case "cancel": return .cancel(try request(), by: try customer())
        case "accept": return .accept(try driver(), try request())
        case "decline": return .decline(try driver(), try request())
        case "pickedUp": return .pickedUp(try driver(), try request())
        case "droppedOff": return .droppedOff(try driver(), try request(), at: try at())
        case "timerFired":
            guard let kind = TimerID.Kind(rawValue: try need(m.timerKind, "timerKind")) else {
                throw CodingFailure.malformed("unknown timer kind \(m.timerKind!)")
            }
            return .timerFired(TimerID(kind: kind, request: try request(), generation: try need(m.generation, "generation")))
        case "report":
            switch try need(m.reporter, "reporter") {
            case "customer": return .report(.customer(try customer()), try request())
            case "driver": return .report(.driver(try driver()), try request())
            case let other: throw CodingFailure.malformed("unknown reporter \(other)")
            }
        case "queueStatus": return .queueStatus(try at())
        case "estimateArrival": return .estimateArrival(try at())
        case "setCity":
            let shape: ZoneLayout.Shape
            switch m.zoneShape {
            case nil: shape = .cutSquares      // the form before zone shapes
            case let name?:
                guard let known = ZoneLayout.Shape(rawValue: name) else { throw CodingFailure.malformed("unknown zone shape \(name)") }
                shape = known
            }
            return .setCity(CityGeometry(layout: try ZoneLayout(shape: shape, side: try need(m.zoneSide, "zoneSide"),
                                                                width: try need(m.width, "width"), height: try need(m.height, "height"))))
        default: throw CodingFailure.malformed("unknown op \(m.op)")
        }
    }
}
