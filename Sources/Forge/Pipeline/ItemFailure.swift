/// An item that failed, with the reason.
package struct ItemFailure: Sendable, Equatable {
    package var itemID: String
    package var error: String

    package init(itemID: String, error: String) {
        self.itemID = itemID
        self.error = error
    }
}
