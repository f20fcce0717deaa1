/// A value written as JSON `null` when absent, where a report keeps the key (a chapter without a
/// part, the dBFS of silence); a plain optional property is left out instead.
struct JSONNull<Wrapped: Encodable>: Encodable {
    let value: Wrapped?

    init(_ value: Wrapped?) {
        self.value = value
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}
