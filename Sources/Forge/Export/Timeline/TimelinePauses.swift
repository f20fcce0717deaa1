/// The silences a chapter is laid out with (from ``ExportSettings``): what makes two layouts of the
/// same items differ, so a layout made for one export can be reused by another that asks the same.
struct TimelinePauses: Sendable, Equatable {
    /// Before a chapter's first item.
    let headMs: Int
    /// After a chapter's last item.
    let tailMs: Int
    /// Between two items of one passage.
    let sentenceMs: Int
    /// Between passages.
    let paragraphMs: Int

    init(_ settings: ExportSettings) {
        headMs = settings.chapterHeadMs
        tailMs = settings.chapterTailMs
        sentenceMs = settings.sentencePauseMs
        paragraphMs = settings.paragraphPauseMs
    }

    /// The pause after `item`: short inside a paragraph cut into several items, longer between
    /// paragraphs (and between a recipe's inline items), longest at the chapter's end.
    func after(_ item: ItemRecord, before next: ItemRecord?) -> Int {
        guard let next else { return tailMs }
        // Inline items' offsets are their entries' indexes: pieces of one entry share them.
        let sameEntry = item.name == nil || next.sourceStart == item.sourceStart
        let samePassage =
            next.sourcePath == item.sourcePath && next.kind == item.kind && item.kind != "heading"
            && next.sourceStart - item.sourceEnd <= 1 && sameEntry
        return samePassage ? sentenceMs : paragraphMs
    }
}
