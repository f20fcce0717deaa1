/// Where a reader's own content document can take a `<span>` around each of an item's sentences, so
/// that its media overlay highlights sentence by sentence as the generated edition does.
///
/// A span is only added where it keeps the document well formed and valid: from the sentence's first
/// character to its last, taking in the start and end tags of inline elements that open and close in
/// between (`<em>`, `<a>`, …), extended over a start tag just before it or an end tag just after it
/// when that balances it. A sentence whose markup crosses another's (`<em>One. Two</em> three.`) is
/// joined with its neighbours into one span, and an item whose text cannot be found in its block,
/// or whose sentences cannot be wrapped at all, is left to its paragraph.
struct SentenceSpans {
    /// A run of an item's sentences wrapped in one span: which sentences, and the span's ends in the document.
    struct Span {
        var sentences: Range<Int>
        /// Offsets (in Unicode scalars) of the span's start and of just past its end in the document.
        var start: Int
        var end: Int
    }

    private let scalars: [Unicode.Scalar]
    private let blocks: [DocumentBlock]
    private let isHTML: Bool
    /// The block the last item was found in: items come in document order, so the search goes on from there.
    private var blockCursor = 0
    /// Where the last span ended: a span never reaches back before it.
    private var floor = 0

    /// Inline elements a span may contain (HTML's phrasing content, as EPUB content documents use it).
    static let phrasingElements: Set<String> = [
        "a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "data", "del", "dfn", "em", "i", "img", "ins", "kbd",
        "mark", "q",
        "rp", "rt", "ruby", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr",
    ]

    init(scalars: [Unicode.Scalar], blocks: [DocumentBlock], isHTML: Bool) {
        self.scalars = scalars
        self.blocks = blocks
        self.isHTML = isHTML
    }

    /// The spans for `item`'s sentences in order, covering every sentence, or nil when the item is
    /// better pointed at as a whole (its text not found in the document, or no span fits).
    mutating func spans(for item: TimedItem) -> [Span]? {
        guard !item.sentences.isEmpty, let origins = origins(of: item) else { return nil }
        var spans: [Span] = []
        var first = 0
        var floor = self.floor
        while first < item.sentences.count {
            var last = first
            var found: Span?
            while found == nil, last < item.sentences.count {
                found = span(
                    item.sentences[first].charRange.lowerBound, item.sentences[last].charRange.upperBound,
                    origins: origins, floor: floor
                )
                .map { Span(sentences: first..<(last + 1), start: $0.start, end: $0.end) }
                if found == nil { last += 1 }
            }
            guard let span = found else { return nil }
            spans.append(span)
            floor = span.end
            first = last + 1
        }
        self.floor = floor
        return spans
    }

    /// For each scalar of the item's text, its offset in the document; nil when its block does not hold that text.
    private mutating func origins(of item: TimedItem) -> [Int]? {
        let start = item.record.sourceStart
        var index = blockCursor
        // Blocks and items are both in document order; an item before the cursor's block is searched from the start.
        if index < blocks.count, let first = blocks[index].origins.first, start < first { index = 0 }
        while index < blocks.count {
            if let first = blocks[index].origins.first, let last = blocks[index].origins.last, first <= start,
                start <= last
            {
                break
            }
            index += 1
        }
        guard index < blocks.count else { return nil }
        blockCursor = index
        // The block's text folded as the splitter folds it, so the item's offsets are the folded text's.
        let (folded, foldedOrigins) = Splitter.folded(blocks[index].text, origins: blocks[index].origins)
        let text = Array(item.record.text.unicodeScalars)
        guard
            let lower = foldedOrigins.indices.first(where: { offset in
                foldedOrigins[offset] == start && offset + text.count <= folded.count
                    && folded[offset..<(offset + text.count)].elementsEqual(text)
            })
        else { return nil }
        return Array(foldedOrigins[lower..<(lower + text.count)])
    }

    /// The document range of the item's text `lower..<upper` as one span, if one fits there.
    private func span(_ lower: Int, _ upper: Int, origins: [Int], floor: Int) -> (start: Int, end: Int)? {
        guard lower < upper, upper <= origins.count else { return nil }
        var start = origins[lower]
        var end = afterCharacter(at: origins[upper - 1])
        guard start >= floor, start < end, end <= scalars.count else { return nil }
        guard var balance = balance(start, end) else { return nil }
        // An element closed inside whose start tag is just before: take the start tag in.
        while balance.lowest < 0, let tag = tag(endingAt: start), tag.start >= floor, !tag.isEnd, !tag.isEmpty,
            Self.phrasingElements.contains(tag.name)
        {
            start = tag.start
            balance.lowest += 1
            balance.final += 1
        }
        // An element opened inside whose end tag follows (perhaps after white space): take the end tag in.
        while balance.final > 0 {
            var next = end
            while next < scalars.count, scalars[next].isSpaceOrControl { next += 1 }
            guard let tag = tag(startingAt: next), tag.isEnd, Self.phrasingElements.contains(tag.name) else { break }
            end = tag.end
            balance.final -= 1
        }
        guard balance.lowest >= 0, balance.final == 0 else { return nil }
        return (start, end)
    }

    /// Just past the source of the character at `offset`: after an entity's `;`, or the scalar itself.
    private func afterCharacter(at offset: Int) -> Int {
        guard scalars[offset] == "&" else { return offset + 1 }
        var index = offset + 1
        while index < scalars.count, index < offset + 40 {
            if scalars[index] == ";" { return index + 1 }
            index += 1
        }
        return offset + 1
    }

    /// The depth of elements over `start..<end` (lowest reached and final), or nil when the range
    /// holds markup a span cannot: a block element, a comment, a CDATA section, a tag cut by an end.
    private func balance(_ start: Int, _ end: Int) -> (lowest: Int, final: Int)? {
        var depth = 0
        var lowest = 0
        var index = start
        while index < end {
            guard scalars[index] == "<" else {
                index += 1
                continue
            }
            guard let tag = tag(startingAt: index), tag.end <= end, Self.phrasingElements.contains(tag.name) else {
                return nil
            }
            if tag.isEnd {
                depth -= 1
                lowest = min(lowest, depth)
            } else if !tag.isEmpty {
                depth += 1
            }
            index = tag.end
        }
        return (lowest, depth)
    }

    /// A start or end tag beginning at `offset`.
    private func tag(startingAt offset: Int) -> (start: Int, end: Int, name: String, isEnd: Bool, isEmpty: Bool)? {
        guard offset + 1 < scalars.count, scalars[offset] == "<" else { return nil }
        var index = offset + 1
        let isEnd = scalars[index] == "/"
        if isEnd { index += 1 }
        var name = ""
        while index < scalars.count, !scalars[index].isSpaceOrControl, scalars[index] != ">", scalars[index] != "/" {
            name.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard !name.isEmpty,
            name.unicodeScalars.allSatisfy({
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == ":" || $0 == "-"
            })
        else { return nil }
        var quote: Unicode.Scalar?
        while index < scalars.count {
            let scalar = scalars[index]
            if let open = quote {
                if scalar == open { quote = nil }
            } else if scalar == "\"" || scalar == "'" {
                quote = scalar
            } else if scalar == "<" {
                return nil
            } else if scalar == ">" {
                let lowered = isHTML ? name.lowercased() : name
                let isEmpty = scalars[index - 1] == "/" || (isHTML && HTMLReader.voidElements.contains(lowered))
                return (offset, index + 1, lowered, isEnd, isEmpty && !isEnd)
            }
            index += 1
        }
        return nil
    }

    /// A tag whose `>` is just before `offset`.
    private func tag(endingAt offset: Int) -> (start: Int, end: Int, name: String, isEnd: Bool, isEmpty: Bool)? {
        guard offset > 0, scalars[offset - 1] == ">" else { return nil }
        var index = offset - 1
        while index > 0, index > offset - 2_000 {
            index -= 1
            if scalars[index] == "<" {
                guard let tag = tag(startingAt: index), tag.end == offset else { return nil }
                return tag
            }
        }
        return nil
    }
}
