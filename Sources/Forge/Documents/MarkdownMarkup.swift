/// Which characters of a Markdown document are markup rather than speech: HTML comments, inline
/// HTML tags and autolinks, images, the brackets and targets of links (their text is spoken),
/// link reference definitions, and the markers of block quotes and list items.
///
/// The splitter keeps every spoken character's offset in the source, so markup is masked, not
/// removed.
struct MarkdownMarkup {
    /// `hidden[i]` is true when scalar `i` is not spoken.
    private(set) var hidden: [Bool]
    /// Source offsets where a list item begins (after its marker): each starts a new paragraph.
    private(set) var listItemStarts: Set<Int> = []

    init(_ scalars: [Unicode.Scalar]) {
        hidden = Array(repeating: false, count: scalars.count)
        hideComments(scalars)
        var lineStart = 0
        while lineStart <= scalars.count {
            var lineEnd = lineStart
            while lineEnd < scalars.count, scalars[lineEnd] != "\n" { lineEnd += 1 }
            hideLine(scalars, lineStart..<lineEnd)
            lineStart = lineEnd + 1
        }
    }

    private mutating func hide(_ range: Range<Int>) {
        for index in range { hidden[index] = true }
    }

    /// `<!-- … -->`, across lines.
    private mutating func hideComments(_ scalars: [Unicode.Scalar]) {
        var index = 0
        while index + 4 <= scalars.count {
            if scalars[index] == "<", scalars[index + 1] == "!", scalars[index + 2] == "-", scalars[index + 3] == "-" {
                var end = index + 4
                while end + 3 <= scalars.count, !(scalars[end] == "-" && scalars[end + 1] == "-" && scalars[end + 2] == ">") { end += 1 }
                let stop = min(scalars.count, end + 3)
                hide(index..<stop)
                index = stop
            } else {
                index += 1
            }
        }
    }

    private mutating func hideLine(_ scalars: [Unicode.Scalar], _ line: Range<Int>) {
        var index = line.lowerBound
        func skipSpaces() { while index < line.upperBound, scalars[index] == " " || scalars[index] == "\t", !hidden[index] { index += 1 } }
        skipSpaces()
        // Block quote markers, possibly nested: "> > text".
        while index < line.upperBound, scalars[index] == ">", !hidden[index] {
            hide(index..<index + 1)
            index += 1
            skipSpaces()
        }
        // A link reference definition, "[id]: https://…", is not text.
        if index < line.upperBound, scalars[index] == "[", let close = closing("]", in: scalars, from: index, to: line.upperBound),
            close + 1 < line.upperBound, scalars[close + 1] == ":"
        {
            hide(index..<line.upperBound)
            return
        }
        // List item markers: "- ", "* ", "+ ", "1. ", "1) ".
        if let marker = listMarkerEnd(scalars, from: index, to: line.upperBound) {
            hide(index..<marker)
            listItemStarts.insert(marker)
            index = marker
        }
        while index < line.upperBound {
            let scalar = scalars[index]
            if hidden[index] {
                index += 1
            } else if scalar == "!", index + 1 < line.upperBound, scalars[index + 1] == "[",
                let close = closing("]", in: scalars, from: index + 1, to: line.upperBound), let end = linkTargetEnd(scalars, after: close, to: line.upperBound)
            {
                // An image: its alt text describes a picture the listener cannot see.
                hide(index..<end)
                index = end
            } else if scalar == "[", let close = closing("]", in: scalars, from: index, to: line.upperBound),
                let end = linkTargetEnd(scalars, after: close, to: line.upperBound)
            {
                hide(index..<index + 1)
                hide(close..<end)
                index += 1
            } else if scalar == "<", let end = tagEnd(scalars, from: index, to: line.upperBound) {
                hide(index..<end)
                index = end
            } else {
                index += 1
            }
        }
    }

    /// The index of the `close` bracket matching the opening one at `open`, on the same line.
    private func closing(_ close: Unicode.Scalar, in scalars: [Unicode.Scalar], from open: Int, to end: Int) -> Int? {
        let opener = scalars[open]
        var depth = 0
        var index = open
        while index < end {
            if scalars[index] == opener { depth += 1 }
            if scalars[index] == close {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }

    /// After a link's `]`: the end of `(target)` or `[reference]`, or nil when neither follows.
    private func linkTargetEnd(_ scalars: [Unicode.Scalar], after close: Int, to end: Int) -> Int? {
        let next = close + 1
        guard next < end else { return nil }
        if scalars[next] == "(", let stop = closing(")", in: scalars, from: next, to: end) { return stop + 1 }
        if scalars[next] == "[", let stop = closing("]", in: scalars, from: next, to: end) { return stop + 1 }
        return nil
    }

    /// The end of an HTML tag (`<em>`, `</a>`, `<br/>`) or autolink (`<https://…>`) at `start`.
    private func tagEnd(_ scalars: [Unicode.Scalar], from start: Int, to end: Int) -> Int? {
        let next = start + 1
        guard next < end, scalars[next] == "/" || scalars[next].properties.isAlphabetic else { return nil }
        var index = next
        while index < end, scalars[index] != ">" {
            if scalars[index] == "<" { return nil }
            index += 1
        }
        return index < end ? index + 1 : nil
    }

    private func listMarkerEnd(_ scalars: [Unicode.Scalar], from start: Int, to end: Int) -> Int? {
        guard start < end else { return nil }
        var index = start
        if scalars[index] == "-" || scalars[index] == "*" || scalars[index] == "+" {
            index += 1
        } else {
            while index < end, index - start < 9, ("0"..."9").contains(scalars[index]) { index += 1 }
            guard index > start, index < end, scalars[index] == "." || scalars[index] == ")" else { return nil }
            index += 1
        }
        guard index < end, scalars[index] == " " || scalars[index] == "\t" else { return nil }
        while index < end, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
        return index
    }
}
