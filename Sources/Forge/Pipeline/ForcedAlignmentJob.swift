import Foundation

/// One item's audio to align by forced alignment, and what to do with the result.
struct ForcedAlignmentJob: Sendable {
    var item: ItemRecord
    var words: [WordToken]
    var audioURL: URL
    var alignmentKey: String
}
