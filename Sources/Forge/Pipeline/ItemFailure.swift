/// An item that failed, with the reason.
public struct ItemFailure: Sendable, Equatable {
    public var itemID: String
    public var error: String

    public init(itemID: String, error: String) {
        self.itemID = itemID
        self.error = error
    }
}
