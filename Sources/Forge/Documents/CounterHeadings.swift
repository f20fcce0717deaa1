/// Finds a plain-text book's headings from the book itself, whatever their decoration: short lines
/// set apart by blank lines that share a shape (``CounterLine``: `~ # ~`, `[ # ]`, `canto #.`, `#. …`)
/// and recur through the book with a counter that goes up — 1, 2, 3 or I, II, III or One, Two,
/// Three or A, B, C —, restarting at its first value where a higher heading begins again.
///
/// What only looks like headings is left alone: a series must have at least three members, most of
/// the lines of its shape must fit it, the text between them must be a chapter's (a numbered list,
/// numbered verses or stanzas have a few words between numbers), the text before them must end its
/// sentences (page numbers cut sentences in half), and a lone line that breaks the count (a line
/// of dialogue "I." inside a chapter) is not taken.
///
/// A series whose every heading is followed at once by a heading of a longer series (`— II —` above
/// `[ 4 ]`) is the book's parts. In a book whose chapters are already found by their words
/// (`Chapter 12`), a series can only be parts above them.
struct CounterHeadings {
    /// A paragraph of the book, as the detector sees it.
    struct Paragraph {
        /// The paragraph's text when it is a single short line not already taken for a heading.
        var line: String?
        var words: Int
        /// Its text ends with a sentence's end (`.`, `!`, `?`, a closing quote …), not mid-sentence.
        var endsSentence: Bool
        /// The heading it already is by its words, if any.
        var heading: PlainTextReader.HeadingShape?
    }

    /// A series needs this many headings to be chapters (two, to be parts above found chapters).
    static let minimumChapters = 3
    /// The median number of words between a series' headings must be at least this: less is a
    /// list, numbered verses or stanzas, not chapters.
    static let minimumMedianWords = 60
    /// At most a third of a series' headings may come after text that stops mid-sentence.
    static let maximumInterruptedShare = 1.0 / 3
    /// A part's first chapter heading comes within this many words (an epigraph, a date line).
    static let maximumWordsBeforeFirstChapter = 150

    /// One line of a series: the paragraph it is, and its counter's value.
    struct Member {
        var index: Int
        var value: Int
    }

    /// The headings found, by paragraph index.
    static func find(in paragraphs: [Paragraph]) -> [Int: PlainTextReader.HeadingShape] {
        let (chapterSeries, partCandidates) = series(in: paragraphs)
        return shapes(chapterSeries: chapterSeries, partCandidates: partCandidates, in: paragraphs)
    }

    /// The counted series of lines: those that look like chapters, and the others, which may be
    /// parts. Each series' longest count is taken, largest first; a line read two ways (a lone
    /// "I" as numeral and letter) goes to the larger.
    private static func series(in paragraphs: [Paragraph]) -> (chapters: [[Member]], partCandidates: [[Member]]) {
        var series: [Key: [Member]] = [:]
        var order: [Key] = []
        for (index, paragraph) in paragraphs.enumerated() {
            guard let line = paragraph.line else { continue }
            for reading in CounterLine.readings(of: line) {
                let key = Key(shape: reading.shape, kind: reading.kind)
                if series[key] == nil { order.append(key) }
                series[key, default: []].append(Member(index: index, value: reading.value))
            }
        }
        var seriesAt: [Int: Set<Key>] = [:]
        for (key, members) in series {
            for member in members { seriesAt[member.index, default: []].insert(key) }
        }
        /// A count may restart just after another heading: a part's, found by words or a line of another series.
        func restartable(_ index: Int, in key: Key) -> Bool {
            var position = index - 1
            var words = 0
            while position >= 0, words <= maximumWordsBeforeFirstChapter {
                if paragraphs[position].heading != nil { return true }
                if let keys = seriesAt[position], !keys.contains(key) { return true }
                words += paragraphs[position].words
                position -= 1
            }
            return false
        }
        func gapWords(_ from: Member, _ to: Member) -> Int {
            paragraphs[(from.index + 1)..<to.index].reduce(0) { $0 + $1.words }
        }
        let counted = order.compactMap { key -> (chain: [Member], considered: [Int])? in
            let (chain, considered) = count(series[key]!, restartable: { restartable($0, in: key) }, gapWords: gapWords)
            return chain.count >= 2 ? (chain, considered) : nil
        }.sorted {
            $0.chain.count != $1.chain.count ? $0.chain.count > $1.chain.count : $0.chain[0].index < $1.chain[0].index
        }
        var claimed = Set<Int>()
        var chapterSeries: [[Member]] = []
        var partCandidates: [[Member]] = []
        for (chain, considered) in counted {
            // Most lines of the shape must fit the count, but for those a longer series took.
            let free = chain.filter { !claimed.contains($0.index) }
            let candidates = considered.filter { !claimed.contains($0) }.count
            guard free.count >= 2, free.count * 10 >= chain.count * 8, free.count * 10 >= candidates * 6 else {
                continue
            }
            if free.count >= minimumChapters, looksLikeChapters(free, in: paragraphs) {
                chapterSeries.append(free)
                claimed.formUnion(free.map(\.index))
            } else {
                partCandidates.append(free)
            }
        }
        return (chapterSeries, partCandidates)
    }

    /// Each series' lines as chapter or part headings: a series above another (or above the
    /// chapters found by their words) heads parts, a short series only when each of its lines is
    /// followed at once by a chapter.
    private static func shapes(
        chapterSeries: [[Member]], partCandidates: [[Member]], in paragraphs: [Paragraph]
    ) -> [Int: PlainTextReader.HeadingShape] {
        let builtInChapters = paragraphs.indices.filter { paragraphs[$0].heading == .chapter }
        /// The words between two paragraphs.
        func words(from start: Int, to end: Int) -> Int {
            paragraphs[(start + 1)..<end].reduce(0) { $0 + $1.words }
        }
        /// Headings `upper` head the chapters `lower`: each of `lower` comes after one of `upper`, half
        /// of `upper` at least hold some, and where a stretch between two of `upper` holds any, the
        /// first follows within a part's opening words (`— II —` then `[ 4 ]`; a story's title, then its sections `I.`, `II.`).
        func isAbove(_ upper: [Int], _ lower: [Int]) -> Bool {
            guard let first = upper.first, let firstLower = lower.first, firstLower > first else { return false }
            var position = 0
            var checked = -1
            var holding = 0
            for index in lower {
                while position + 1 < upper.count, upper[position + 1] < index { position += 1 }
                guard position != checked else { continue }
                checked = position
                holding += 1
                if words(from: upper[position], to: index) > maximumWordsBeforeFirstChapter { return false }
            }
            // Parts hold chapters, most of them: letters before the chapters do not, but the last.
            return holding * 2 >= upper.count
        }
        /// Headings `upper` each followed at once by one of `lower`: a short series is parts only so.
        func eachFollowedBy(_ upper: [Int], _ lower: [Int]) -> Bool {
            upper.allSatisfy { index in
                guard let next = lower.first(where: { $0 > index }) else { return false }
                return words(from: index, to: next) <= maximumWordsBeforeFirstChapter
                    && !upper.contains { $0 > index && $0 < next }
            }
        }
        let seriesIndices = chapterSeries.map { $0.map(\.index) }
        // Chapters a series may head: the other series, and the chapters found by their words.
        let lowers = seriesIndices + (builtInChapters.count >= 2 ? [builtInChapters] : [])
        var found: [Int: PlainTextReader.HeadingShape] = [:]
        for (number, indices) in seriesIndices.enumerated() {
            let heads = lowers.indices.contains { $0 != number && isAbove(indices, lowers[$0]) }
            let isHeaded = seriesIndices.indices.contains { $0 != number && isAbove(seriesIndices[$0], indices) }
            // In a book whose chapters are found by their words, a series can only be parts above them,
            // or chapters of their own before the first ("Letter 1" … "Letter 4", then "Chapter 1").
            let beforeChapters = builtInChapters.first.map { first in indices.allSatisfy { $0 < first } } ?? true
            let shape: PlainTextReader.HeadingShape? =
                heads && !isHeaded ? .part : (builtInChapters.count >= 2 && !beforeChapters ? nil : .chapter)
            for index in indices { found[index] = shape }
        }
        for chain in partCandidates {
            let indices = chain.map(\.index)
            guard lowers.contains(where: { eachFollowedBy(indices, $0) }) else { continue }
            for index in indices where found[index] == nil { found[index] = .part }
        }
        return found.compactMapValues { $0 }
    }

    /// The series a line belongs to: its shape and how its counter is written.
    struct Key: Hashable {
        var shape: String
        var kind: CounterLine.Kind
    }

    /// The members that make the longest count: each one more than the one before, or back at the
    /// count's first value (a restart: the next part's chapters) after a count of at least two and
    /// just after a heading of another kind (`restartable`). Of several lines with the value a count is at,
    /// the first is taken (a heading comes before its chapter's text); of two counts as long, the
    /// one with fewer restarts. A run of restarted count whose headings have a few words between
    /// them (a numbered list or verses before the first chapter) is left out.
    /// Returns the count and the paragraphs of the members considered (all but the lists).
    static func count(_ members: [Member], restartable: (Int) -> Bool, gapWords: (Member, Member) -> Int) -> (
        chain: [Member], considered: [Int]
    ) {
        var pool = withoutLists(members, gapWords: gapWords)
        let considered = pool.map(\.index)
        // A list's run found in place of chapters is taken out and the count made again without it
        // (a few times: each pass removes at least one run).
        for _ in 0..<4 {
            guard let lowest = pool.map(\.value).min() else { return ([], considered) }
            var best: [Member] = []
            for start in Set([1, lowest]).sorted() {
                let chain = count(pool, from: start, restartable: restartable)
                if chain.count > best.count { best = chain }
            }
            // Split at the restarts; drop runs that are lists, not chapters.
            var runs: [[Member]] = []
            for (position, member) in best.enumerated() {
                if position == 0 || member.value != best[position - 1].value + 1 { runs.append([]) }
                runs[runs.count - 1].append(member)
            }
            let lists = runs.filter {
                $0.count >= 2 && median(zip($0, $0.dropFirst()).map(gapWords)) < minimumMedianWords
            }
            guard !lists.isEmpty else { return (best, considered) }
            let removed = Set(lists.joined().map(\.index))
            pool.removeAll { removed.contains($0.index) }
        }
        return ([], considered)
    }

    /// `members` without the numbered lists among them: runs that count up with a few words between
    /// each number and the next (at least three numbers, or two with hardly any words between),
    /// other than a run before every other member (a table of contents, which is taken out later).
    static func withoutLists(_ members: [Member], gapWords: (Member, Member) -> Int) -> [Member] {
        var kept: [Member] = []
        var run: [Member] = []
        var gaps: [Int] = []
        func endRun() {
            let isList = run.count >= 3 || (run.count == 2 && gaps[0] < minimumMedianWords / 2)
            if !isList || kept.isEmpty && run.first?.index == members.first?.index { kept += run }
            run = []
            gaps = []
        }
        for member in members {
            if let last = run.last {
                let gap = gapWords(last, member)
                if member.value == last.value + 1, gap < minimumMedianWords {
                    run.append(member)
                    gaps.append(gap)
                    continue
                }
                endRun()
            }
            run = [member]
        }
        endRun()
        return kept
    }

    /// The longest count of `members` starting at `start` (dynamic programming over the members in order).
    private static func count(_ members: [Member], from start: Int, restartable: (Int) -> Bool) -> [Member] {
        struct Step {
            var length: Int
            var restarts: Int
            /// Members since the last (re)start, this one included.
            var run: Int
            var previous: Int?

            func isBetter(than other: Step?) -> Bool {
                guard let other else { return true }
                return length != other.length ? length > other.length : restarts < other.restarts
            }
        }
        var steps: [Step?] = Array(repeating: nil, count: members.count)
        var bestAtValue: [Int: Int] = [:]
        var bestToRestartFrom: Int?
        for (index, member) in members.enumerated() {
            var step: Step?
            if member.value == start {
                step = Step(length: 1, restarts: 0, run: 1, previous: nil)
                if let from = bestToRestartFrom, restartable(member.index), let before = steps[from] {
                    let restart = Step(length: before.length + 1, restarts: before.restarts + 1, run: 1, previous: from)
                    if restart.isBetter(than: step) { step = restart }
                }
            } else if let previous = bestAtValue[member.value - 1], let before = steps[previous] {
                step = Step(
                    length: before.length + 1, restarts: before.restarts, run: before.run + 1, previous: previous)
            }
            guard let step else { continue }
            steps[index] = step
            if step.isBetter(than: bestAtValue[member.value].flatMap { steps[$0] }) {
                bestAtValue[member.value] = index
            }
            if step.run >= 2, step.isBetter(than: bestToRestartFrom.flatMap { steps[$0] }) { bestToRestartFrom = index }
        }
        var last = steps.indices.filter { steps[$0] != nil }.max { steps[$1]!.isBetter(than: steps[$0]) }
        var chain: [Member] = []
        while let index = last {
            chain.append(members[index])
            last = steps[index]!.previous
        }
        return chain.reversed()
    }

    static func median(_ values: [Int]) -> Int {
        guard !values.isEmpty else { return 0 }
        return values.sorted()[values.count / 2]
    }

    /// Chapters have text between them (the median gap at least ``minimumMedianWords``), and the
    /// text before them ends its sentences: page numbers come mid-sentence.
    static func looksLikeChapters(_ chain: [Member], in paragraphs: [Paragraph]) -> Bool {
        var gaps: [Int] = []
        var interrupted = 0
        for (previous, member) in zip(chain, chain.dropFirst()) {
            gaps.append(paragraphs[(previous.index + 1)..<member.index].reduce(0) { $0 + $1.words })
            let before = paragraphs[member.index - 1]
            // Another series' heading (a part above) may end without a full stop, and a letter's
            // signature ("Your affectionate brother, / R. Walton"); prose may not.
            if before.heading == nil, !before.endsSentence, before.words > 6,
                before.line.map({ CounterLine.readings(of: $0).isEmpty }) ?? true
            {
                interrupted += 1
            }
        }
        return median(gaps) >= minimumMedianWords && Double(interrupted) <= Double(gaps.count) * maximumInterruptedShare
    }
}
