/// Escaping for XML and HTML text and attribute values.
enum XMLText {
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default:
                // Control characters other than tab and newline are not allowed in XML 1.0.
                if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" {
                    result += " "
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// An item's text as markup: every word in a span made by `wordSpan`, the text between
    /// words (spaces, punctuation) kept as it is.
    static func markedUp(_ item: TimedItem, wordSpan: (Int, TimedWord, String) -> String) -> String {
        let scalars = Array(item.record.text.unicodeScalars)
        var html = ""
        var cursor = 0
        for (index, word) in item.words.enumerated() {
            html += escaped(slice(scalars, cursor, word.token.start))
            html += wordSpan(index, word, escaped(slice(scalars, word.token.start, word.token.end)))
            cursor = word.token.end
        }
        return html + escaped(slice(scalars, cursor, scalars.count))
    }

    static func slice(_ scalars: [Unicode.Scalar], _ start: Int, _ end: Int) -> String {
        start < end ? String(scalars: scalars[start..<end]) : ""
    }

    /// The block element an item is written as in EPUB and HTML exports, and its start tag:
    /// `<h2>` for headings and titles, `<p>` otherwise, with the item's kind as its class (and a
    /// dialogue item's character as `data-character`), so a stylesheet can set dialogue apart.
    static func block(_ item: TimedItem) -> (tag: String, start: String) {
        let record = item.record
        let tag = record.kind == ItemKind.heading.rawValue || record.kind == ItemKind.title.rawValue ? "h2" : "p"
        var start = "<\(tag) id=\"\(record.id)\""
        if record.kind != ItemKind.heading.rawValue && record.kind != ItemKind.paragraph.rawValue {
            start += " class=\"\(record.kind)\""
        }
        if let character = record.character { start += " data-character=\"\(escaped(character))\"" }
        return (tag, start + ">")
    }
}
