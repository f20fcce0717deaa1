import Foundation

/// Lays every chapter out as one recording (items plus pauses) from a finished build's manifest.
struct TimelineBuilder {
    let store: ObjectStore
    let manifest: Manifest
    let settings: ExportSettings
    /// Only these chapters (a shard's, whose other items are another machine's); nil: every one.
    var chapters: Set<Int>? = nil
    /// Only these items, by id (a shard's: its chapters' and its neighbours' edge items); nil: every one.
    var items: Set<String>? = nil

    /// Every chapter with its words: for commands that need the whole book's text at once (verify, check).
    func timelines() throws -> [ChapterTimeline] {
        let book = try book()
        return try book.chapters.map(book.timed)
    }

    /// The book laid out chapter by chapter, words left to ``BookTimeline/timed(_:)``: what
    /// exports iterate, so their memory follows one chapter, not the book.
    func book() throws -> BookTimeline {
        try layout().book
    }

    /// ``book()``, and the lengths of the audio objects whose headers had to be read (the manifest
    /// did not record them), for a caller that may record them.
    func layout() throws -> (book: BookTimeline, measured: [String: Int]) {
        var measured: [String: Int] = [:]
        let (chapters, only) = (self.chapters, self.items)
        let pauses = TimelinePauses(settings)
        let items = try manifest.items().filter {
            chapters?.contains($0.chapter) ?? true && only?.contains($0.id) ?? true
        }
        let unfinished = items.filter { $0.status != .done }
        guard !items.isEmpty, unfinished.isEmpty else {
            throw ExportError.notBuilt(outputDirectory: store.root.path, pending: items.isEmpty ? 0 : unfinished.count)
        }
        let objects = try manifest.itemAudioObjects()
        let itemsByChapter = Dictionary(grouping: items, by: \.chapter)
        var timelines: [ChapterTimeline] = []
        for chapter in try manifest.chapters() {
            guard let chapterItems = itemsByChapter[chapter.ordinal], !chapterItems.isEmpty else { continue }
            var sounds: [ChapterTimeline.Sound] = []
            sounds.reserveCapacity(chapterItems.count)
            var chapterRate = 0
            for item in chapterItems {
                guard let key = item.audioKey, let object = objects[key] else {
                    throw ExportError.missingAudio(itemID: item.id, path: item.audioKey ?? "(none)")
                }
                let header: (frames: Int, sampleRate: Int)
                if let frames = object.frames, let rate = object.sampleRate {
                    header = (frames, rate)
                } else {
                    do { header = try store.audioHeader(relativePath: object.path) } catch {
                        throw ExportError.missingAudio(itemID: item.id, path: object.path)
                    }
                    measured[key] = header.frames
                }
                if chapterRate == 0 { chapterRate = header.sampleRate }
                let samples = Int((Int64(header.frames) * Int64(chapterRate)) / Int64(max(1, header.sampleRate)))
                sounds.append(ChapterTimeline.Sound(record: item, audioPath: object.path, samples: samples))
            }
            timelines.append(
                ChapterTimeline.laidOut(chapter: chapter, sounds: sounds, sampleRate: chapterRate, pauses: pauses))
        }
        return (BookTimeline(chapters: timelines, manifest: manifest, pauses: pauses), measured)
    }

    /// The chapter's items with their words (shifted to chapter-absolute times) and sentences.
    static func timed(_ layout: ChapterTimeline, words: [String: [TimedWord]]) -> ChapterTimeline {
        var timeline = layout
        for index in timeline.items.indices {
            let item = timeline.items[index]
            let itemWords = (words[item.record.id] ?? []).map { word -> TimedWord in
                var shifted = word
                if let timing = word.timing {
                    shifted.timing = WordTiming(
                        startMs: timing.startMs + item.startMs, endMs: timing.endMs + item.startMs)
                }
                return shifted
            }
            timeline.items[index].words = itemWords
            timeline.items[index].sentences = sentences(of: item.record.text, words: itemWords)
        }
        return timeline
    }

    /// The item's sentences, each timed from its first word's start to its last word's end.
    static func sentences(of text: String, words: [TimedWord]) -> [TimedSentence] {
        let scalars = Array(text.unicodeScalars)
        var sentences: [TimedSentence] = []
        var wordIndex = 0
        for range in SentenceSegmenter.sentences(in: scalars) {
            let first = wordIndex
            while wordIndex < words.count, words[wordIndex].token.start < range.upperBound { wordIndex += 1 }
            guard wordIndex > first, let start = words[first].timing?.startMs,
                let end = words[wordIndex - 1].timing?.endMs
            else { continue }
            sentences.append(
                TimedSentence(
                    index: sentences.count, text: String(scalars: scalars[range]), charRange: range,
                    wordRange: first..<wordIndex, startMs: start, endMs: end))
        }
        if wordIndex < words.count, let start = words[wordIndex].timing?.startMs, let end = words.last?.timing?.endMs {
            // Words after the last sentence the segmenter found (no terminal punctuation) form one more.
            let range = words[wordIndex].token.start..<words.last!.token.end
            sentences.append(
                TimedSentence(
                    index: sentences.count, text: String(scalars: scalars[range]), charRange: range,
                    wordRange: wordIndex..<words.count, startMs: start, endMs: end))
        }
        return sentences
    }
}
