/// An item that failed, as the build summary and `forge status` list it.
struct FailedItemJSON: Encodable {
    var id: String
    var error: String
}
