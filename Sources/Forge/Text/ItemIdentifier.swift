/// Stable item ids: the item's kind and a hash of its text. Editing one paragraph changes only
/// that paragraph's id; repeated identical text gets `-2`, `-3`, … in reading order.
public enum ItemIdentifier {
    public static func base(kind: ItemKind, text: String) -> String {
        let prefix = kind == .heading ? "h" : "p"
        return prefix + String(ContentHash.sha256Hex("\(kind.rawValue)\n\(text)").prefix(12))
    }
}
