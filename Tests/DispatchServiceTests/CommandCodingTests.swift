import DispatchCore
import Foundation
import Testing
@testable import DispatchService

/// The command log's JSON mirror gives back exactly the command it was made from.
@Suite struct CommandCodingTests {
    static let here = Position(x: 1.5, y: 2), there = Position(x: 300, y: 400.25)
    static let commands: [Command] = [
        .addDriver(DriverID(1), taxiCode: "TX-\"1\""), .startShift(DriverID(1), at: here), .endShift(DriverID(2)),
        .setAvailable(DriverID(3), false), .updatePosition(DriverID(4), there),
        .requestRide(RequestID(5), customer: CustomerID(6), origin: here, destination: there, patience: .infinity),
        .reserveRide(RequestID(7), customer: CustomerID(8), origin: here, destination: there, meetingTime: 1e9),
        .cancel(RequestID(9), by: CustomerID(10)), .accept(DriverID(11), RequestID(12)), .decline(DriverID(13), RequestID(14)),
        .pickedUp(DriverID(15), RequestID(16)), .droppedOff(DriverID(17), RequestID(18), at: there),
        .timerFired(TimerID(kind: .maximumAllowedDelay, request: RequestID(19), generation: 3)),
        .timerFired(TimerID(kind: .batchEpoch, request: RequestID(-1), generation: 7)),
        .report(.customer(CustomerID(20)), RequestID(21)), .report(.driver(DriverID(22)), RequestID(23)),
        .queueStatus(here), .estimateArrival(there),
        .setCity(try! CityGeometry(width: 5_000, height: 3_000.5, zoneSide: 1_414.2)),
        .setCity(try! CityGeometry(width: 5_000, height: 3_000.5, zoneShape: .hexagon, zoneArea: 1_000_000)),
        .setCity(CityGeometry(layout: try! ZoneLayout(shape: .cutSquares, side: 1_414.2, width: 5_000, height: 3_000.5))),
    ]

    @Test(arguments: commands) func roundTrip(_ command: Command) throws {
        #expect(try CommandCoding.decode(CommandCoding.encode(command)) == command)
    }

    /// What the log wrote with `JSONEncoder` before the hand-written encoding.
    static func encodedByFoundation(_ command: Command) throws -> String {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(CommandCoding.mirror(of: command)), as: UTF8.self)
    }

    @Test(arguments: commands) func sameBytesAsJSONEncoder(_ command: Command) throws {
        #expect(try CommandCoding.encode(command) == Self.encodedByFoundation(command))
    }

    @Test(arguments: [0.1, -0.0, 1e20, 1e-7, 1e15, 1e16, 123_456.789, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.infinity, .nan])
    func numbersAsJSONEncoderWritesThem(_ value: Double) throws {
        let command = Command.updatePosition(DriverID(-3), Position(x: value, y: -value))
        #expect(try CommandCoding.encode(command) == Self.encodedByFoundation(command))
    }

    @Test func entryWrittenBeforeStillReads() throws {
        let old = #"{"customer":6,"op":"requestRide","patience":"inf","request":5,"toX":300,"toY":400.25,"x":1.5,"y":2}"#
        #expect(try CommandCoding.decode(old) == .requestRide(RequestID(5), customer: CustomerID(6), origin: Self.here,
                                                              destination: Self.there, patience: .infinity))
    }

    @Test func aMapChangeLoggedBeforeZoneShapesReplaysAsTheSquaresCutAtTheEdgeItMeant() throws {
        let old = #"{"height":3000.5,"op":"setCity","width":5000,"zoneSide":1414.2}"#
        guard case .setCity(let city) = try CommandCoding.decode(old) else { Issue.record("not a setCity"); return }
        #expect(city.zoneShape == .cutSquares)
        #expect(city.columns == 4 && city.rows == 3 && city.zoneCount == 12)   // 5000 / 1414.2 and 3000.5 / 1414.2, rounded up
        #expect(try city.zone(of: Position(x: 4_990, y: 2_990)) == ZoneID(11))    // the cut corner zone still exists
        #expect(try CommandCoding.encode(.setCity(city)).contains(#""zoneShape":"cut-squares""#))
    }

    @Test func aMapChangeWithAnUnknownShapeIsMalformed() {
        #expect(throws: CommandCoding.CodingFailure.self) {
            try CommandCoding.decode(#"{"height":3000,"op":"setCity","width":5000,"zoneShape":"circle","zoneSide":1000}"#)
        }
    }

    @Test func malformedEntriesAreErrors() {
        #expect(throws: CommandCoding.CodingFailure.self) { try CommandCoding.decode(#"{"op":"fly"}"#) }
        #expect(throws: CommandCoding.CodingFailure.self) { try CommandCoding.decode(#"{"op":"accept","driver":1}"#) }
    }
}
