extension Splitter.Builder {
    /// The recipe's inline items, in one chapter: each entry's text becomes items of its kind,
    /// named by the entry's id; an article becomes its title, its author and its body's paragraphs
    /// (named `id.title`, `id.author`, `id.body-N`).
    mutating func add(_ entries: [InlineItem], title: String, path: String) {
        guard !entries.isEmpty else { return }
        chapters.append(Chapter(ordinal: chapters.count + 1, title: title, sourcePath: path))
        lastSpeaker = nil
        for (index, entry) in entries.enumerated() {
            switch entry.kind {
            case .article:
                if let title = entry.title {
                    emitInline(title, kind: .title, at: index, path: path, name: "\(entry.id).title")
                }
                if let author = entry.author {
                    emitInline(author, kind: .author, at: index, path: path, name: "\(entry.id).author")
                }
                let paragraphs = (entry.body ?? "").components(separatedBy: "\n\n").filter {
                    $0.unicodeScalars.contains(where: Tokenizer.isWordScalar)
                }
                for (number, paragraph) in paragraphs.enumerated() {
                    emitInline(
                        paragraph, kind: .paragraph, at: index, path: path, name: "\(entry.id).body-\(number + 1)")
                }
            case .heading:
                emitInline(entry.text, kind: .heading, at: index, path: path, name: entry.id)
            case .message:
                emitInline(entry.text, kind: .message, at: index, path: path, name: entry.id)
            case .narration:
                emitInline(entry.text, kind: .narration, at: index, path: path, name: entry.id)
            case .dialogue:
                emitInline(
                    entry.text, kind: .dialogue, at: index, path: path, name: entry.id, character: entry.character)
            }
        }
    }

    /// One entry's text; its "source offsets" are the entry's index in `items`.
    private mutating func emitInline(
        _ text: String, kind: ItemKind, at index: Int, path: String, name: String, character: String? = nil
    ) {
        let scalars = Array(text.unicodeScalars)
        if kind == .heading || kind == .title || kind == .author {
            let folded = String(foldingWhiteSpaceOf: scalars)
            guard folded.unicodeScalars.contains(where: Tokenizer.isWordScalar) else { return }
            appendItem(kind: kind, text: folded, path: path, sourceStart: index, sourceEnd: index + 1, name: name)
            return
        }
        emitText(
            scalars, origin: Array(repeating: index, count: scalars.count), path: path, elementID: nil, kind: kind,
            character: character, name: name)
    }
}
