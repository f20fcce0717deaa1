/// The book as exports see it: every chapter laid out (items placed, pauses between them) with
/// words and sentences loaded one chapter at a time by ``timed(_:)``, so an export's memory
/// follows its longest chapter rather than the book.
struct BookTimeline: Sendable {
    /// Every chapter in reading order; their items' `words` and `sentences` are empty.
    let chapters: [ChapterTimeline]
    let manifest: Manifest
    /// The silences the chapters were laid out with.
    let pauses: TimelinePauses

    /// The book as `settings` lay it out: itself when they ask for the same pauses, else its items
    /// placed again (the ACX set's head and tail), without reading the manifest.
    func laidOut(with settings: ExportSettings) -> BookTimeline {
        let pauses = TimelinePauses(settings)
        guard pauses != self.pauses else { return self }
        return BookTimeline(chapters: chapters.map { $0.laidOut(with: pauses) }, manifest: manifest, pauses: pauses)
    }

    /// The chapter with its items' words (chapter-absolute times) and sentences.
    func timed(_ layout: ChapterTimeline) throws -> ChapterTimeline {
        TimelineBuilder.timed(layout, words: try manifest.timedWords(inChapter: layout.chapter.ordinal))
    }

    /// Every chapter with its words, one at a time.
    func forEachTimed(_ body: (ChapterTimeline) throws -> Void) throws {
        for layout in chapters { try body(try timed(layout)) }
    }

    var durationMs: Int { chapters.reduce(0) { $0 + $1.durationMs } }
}
