/// One of N parts of a build, for `forge build --shard I/N` on N machines sharing a remote cache.
///
/// An item belongs to a shard by its audio key (the SHA-256 of everything that shapes its audio):
/// the assignment needs no coordination, and editing one paragraph moves only that paragraph's
/// item. Items are short and many, so shards come out balanced in words to within a few percent
/// on a book (the figures are in docs/remote-cache.md).
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    package var index: Int
    package var count: Int

    package static let allowedCounts = 1...1024

    package init?(index: Int, count: Int) {
        guard Self.allowedCounts.contains(count), (1...count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `I/N`, as `--shard` takes it.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    package var description: String { "\(index)/\(count)" }

    /// Whether the item whose audio key is `audioKey` (hex SHA-256) is this shard's to make.
    package func contains(audioKey: String) -> Bool {
        Self.shard(ofAudioKey: audioKey, count: count) == index
    }

    /// The 1-based shard of `audioKey` among `count`: its first 64 bits, modulo `count`.
    package static func shard(ofAudioKey audioKey: String, count: Int) -> Int {
        let hex = audioKey.count >= 16 && audioKey.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
            ? audioKey : ContentHash.sha256Hex(audioKey)
        let value = UInt64(hex.prefix(16), radix: 16) ?? 0
        return Int(value % UInt64(count)) + 1
    }
}
