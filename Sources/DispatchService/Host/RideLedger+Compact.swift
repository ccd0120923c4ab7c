import DispatchCore

extension RideLedger.Ride {
    /// This ride in `CompactBinaryEncoder`'s form, byte for byte what its synthesized `Codable` writes there: the
    /// fields in declaration order, identifiers as their number, each optional as a presence byte and the value.
    /// A checkpoint holds one per ride held, and the generic path spent most of the checkpoint's time in the
    /// `Codable` machinery around these few fields. `CompactBinaryCoderTests` pins the two forms to each other,
    /// so a field added to `Ride` without a line here fails there.
    func writeCompact(to sink: ByteSink) {
        sink.signed(Int64(id.rawValue))
        sink.signed(Int64(customer.rawValue))
        sink.position(origin)
        sink.position(destination)
        sink.double(requestedAt)
        sink.optional(meetingTime, sink.double)
        sink.optional(taxiCode, sink.string)
        sink.optional(etaSeconds, sink.double)
        sink.optional(notifiedAt, sink.double)
        sink.double(fareCharged)
        sink.optional(servedBy) { sink.signed(Int64($0.rawValue)) }
        sink.optional(pickedUpAt, sink.double)
        sink.optional(completedAt, sink.double)
    }
}
