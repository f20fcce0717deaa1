import Foundation

/// An item whose audio came out other bytes when it was made again.
package struct ReproducibilityMismatch: Sendable, Equatable {
    package var itemID: String
    package var audioKey: String
    /// The store's digest, and the one made again (nil when making it again failed).
    package var stored: String
    package var remade: String?
    /// What the audio key names: voice URI and engine version.
    package var voice: String
    package var engineVersion: String
    /// Why making it again failed, when it did.
    package var failure: String?

    /// The mismatch in words, naming what the item's bytes depended on.
    package var message: String {
        let found = remade.map { "\($0.prefix(12))…" } ?? "nothing (\(failure ?? "it failed"))"
        return
            "item \(itemID): made again it has audio \(found), the store has \(stored.prefix(12))…; its key \(audioKey.prefix(12))… names the voice \(voice), engine version \(engineVersion), the item's text and the audio settings"
    }
}
