/// A chapter as one continuous recording: its items in order with the pauses between them.
/// Every export (chapter audio, JSON, captions, SMIL, HTML) reads times from here, so they agree.
package struct ChapterTimeline: Sendable {
    package var chapter: Chapter
    package var items: [TimedItem]
    package var sampleRate: Int
    /// Length of the chapter audio, pauses included.
    package var durationMs: Int
    package var totalSamples: Int

    /// The file stem used for this chapter's exports, e.g. `chapter-003`.
    package var fileStem: String { "chapter-" + chapter.ordinal.zeroPadded(to: 3) }

    /// Samples in one AAC frame: chapters are laid out in whole frames (``wholeFrames(_:)``).
    static let frameSamples = 1024

    /// `samples` rounded up to whole AAC frames.
    static func wholeFrames(_ samples: Int) -> Int { (samples + frameSamples - 1) / frameSamples * frameSamples }

    static func milliseconds(_ samples: Int, rate: Int) -> Int { Int((Int64(samples) * 1000) / Int64(max(1, rate))) }

    /// The items sounding in the stretch `range` of the chapter's audio, in milliseconds.
    func items(overlappingMs range: Range<Int>) -> [TimedItem] {
        items.filter { $0.endMs > range.lowerBound && $0.startMs < range.upperBound }
    }

    /// The items sounding in the stretch `range` of the chapter's audio, in samples.
    func items(overlappingSamples range: Range<Int>) -> [TimedItem] {
        items.filter { $0.startSample < range.upperBound && $0.startSample + $0.sampleCount > range.lowerBound }
    }
}
