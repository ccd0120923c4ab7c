// MARK: - States encode as [case number] or [case number, id]: positional, so any coder (JSON, a
// compact binary one) can carry them, and a snapshot's hundreds of thousands of them stay small.

extension DriverStatus: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let tag = try container.decode(UInt8.self)
        switch tag {
        case 0: self = .offShift
        case 1: self = .unavailable
        case 2: self = .available(try container.decode(ZoneID.self))
        case 3: self = .offered(try container.decode(RequestID.self))
        case 4: self = .toPickup(try container.decode(RequestID.self))
        case 5: self = .onRide(try container.decode(RequestID.self))
        default:
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "driver state \(tag) is not one of 0–5")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .offShift: try container.encode(UInt8(0))
        case .unavailable: try container.encode(UInt8(1))
        case .available(let zone): try container.encode(UInt8(2)); try container.encode(zone)
        case .offered(let request): try container.encode(UInt8(3)); try container.encode(request)
        case .toPickup(let request): try container.encode(UInt8(4)); try container.encode(request)
        case .onRide(let request): try container.encode(UInt8(5)); try container.encode(request)
        }
    }
}

extension RequestStatus: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let tag = try container.decode(UInt8.self)
        switch tag {
        case 0: self = .scheduled
        case 1: self = .pending
        case 2: self = .offered(try container.decode(DriverID.self))
        case 3: self = .accepted(try container.decode(DriverID.self))
        case 4: self = .pickedUp(try container.decode(DriverID.self))
        case 5: self = .completed
        case 6: self = .rejected
        case 7: self = .cancelled
        case 8: self = .expired
        default:
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "request state \(tag) is not one of 0–8")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        switch self {
        case .scheduled: try container.encode(UInt8(0))
        case .pending: try container.encode(UInt8(1))
        case .offered(let driver): try container.encode(UInt8(2)); try container.encode(driver)
        case .accepted(let driver): try container.encode(UInt8(3)); try container.encode(driver)
        case .pickedUp(let driver): try container.encode(UInt8(4)); try container.encode(driver)
        case .completed: try container.encode(UInt8(5))
        case .rejected: try container.encode(UInt8(6))
        case .cancelled: try container.encode(UInt8(7))
        case .expired: try container.encode(UInt8(8))
        }
    }
}
