/// Stable item ids: the item's kind and a hash of its text (and of its character, for dialogue).
/// Editing one paragraph changes only that paragraph's id; repeated identical text gets `-2`, `-3`, … in reading order.
package enum ItemIdentifier {
    package static func base(kind: ItemKind, text: String, character: String? = nil) -> String {
        // Items without a character hash exactly as before characters existed, so old manifests keep their ids.
        let hashed = character.map { "\(kind.rawValue)\n\($0.lowercased())\n\(text)" } ?? "\(kind.rawValue)\n\(text)"
        return kind.idPrefix + String(ContentHash.sha256Hex(hashed).prefix(12))
    }
}
