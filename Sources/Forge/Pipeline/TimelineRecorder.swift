import Foundation

/// Records every item's place on its chapter's timeline (as the exports lay the chapter out, with
/// the given pauses) and its sentences with chapter times, in the manifest (schema v11): what an
/// app playing the exported chapter audio needs, without re-deriving the pause rules.
struct TimelineRecorder {
    let store: ObjectStore
    let manifest: Manifest
    let settings: ExportSettings

    /// Records the chapters whose layout changed or that hold an item of `touched`; leaves the others.
    /// Returns the book as it laid it out, for the exports.
    @discardableResult
    func record(touched: Set<String>, cancellation: CancellationFlag?) throws -> BookTimeline {
        let (book, measured) = try TimelineBuilder(store: store, manifest: manifest, settings: settings).layout()
        try manifest.recordFrames(measured)
        let stored = try manifest.placements()
        for layout in book.chapters where cancellation?.isCancelled != true {
            let unchanged = layout.items.allSatisfy { item in
                !touched.contains(item.record.id)
                    && stored[item.record.id].map { $0.start == item.startMs && $0.end == item.endMs } == true
            }
            if unchanged { continue }
            let timeline = try book.timed(layout)
            try manifest.recordPlacements(
                timeline.items.map { item in
                    Manifest.PlacedItem(
                        itemID: item.record.id, chapterStartMs: item.startMs, chapterEndMs: item.endMs,
                        sentences: item.sentences.map {
                            Manifest.SentenceRow(
                                index: $0.index, text: $0.text, charStart: $0.charRange.lowerBound,
                                charEnd: $0.charRange.upperBound,
                                wordStart: $0.wordRange.lowerBound, wordEnd: $0.wordRange.upperBound,
                                chapterStartMs: $0.startMs, chapterEndMs: $0.endMs)
                        })
                })
        }
        return book
    }
}
