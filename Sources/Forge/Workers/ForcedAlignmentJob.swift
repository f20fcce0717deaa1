import Foundation

/// One item's audio to align by forced alignment, and what to do with the result.
struct ForcedAlignmentJob: Sendable {
    var item: ItemRecord
    var words: [WordToken]
    /// The item's audio object, relative to the output directory.
    var audioPath: String
    var alignmentKey: String
}
