import Foundation

/// A CMU-format pronouncing dictionary read once into memory, for the many small dictionaries
/// made from it (``PronouncingDictionary``): each forced-aligned item gets a decoder of its own
/// words, and reading the 135,000-word file for each would cost more than the decode.
struct CMUDictionary: Sendable {
    /// Dictionary key → its pronunciations as the file spells them ("HH AH L OW"), in the file's
    /// order (the main one first, then `word(2)`, …).
    private let pronunciations: [String: [String]]

    init(contentsOf url: URL) throws(RecognitionError) {
        var pronunciations: [String: [String]] = [:]
        try Self.forEachEntry(in: url) { key, phones in
            let text = phones().trimmingCharacters(in: .whitespaces)
            if !text.isEmpty { pronunciations[key, default: []].append(text) }
        }
        self.pronunciations = pronunciations
    }

    /// Calls `body` with each entry of the CMU-format file at `url`, in the file's order: its key
    /// (a variant's `(2)` taken off) and its phones as the file spells them, made only when asked.
    static func forEachEntry(in url: URL, _ body: (String, () -> String) -> Void) throws(RecognitionError) {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw .modelMissing(path: url.path) }
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { continue }
                var head = line[line.startIndex..<space]
                if head.last == UInt8(ascii: ")"), let open = head.firstIndex(of: UInt8(ascii: "(")) {
                    head = head[head.startIndex..<open]
                }
                body(String(decoding: head, as: UTF8.self)) { String(decoding: line[(space + 1)...], as: UTF8.self) }
            }
        }
    }

    /// The pronunciations of `key` (a ``Pronouncer/dictionaryKey(_:)``), each a list of phones,
    /// the main one first; nil when the dictionary lacks the word.
    func pronunciations(of key: String) -> [[String]]? {
        pronunciations[key]?.map { $0.split(separator: " ").map(String.init) }
    }
}
