extension RecipeLoader {

    /// `items`: inline entries with an id and text (or, for an article, title, author and body).
    func readItems(_ top: RecipeObjectReader) throws(RecipeError) -> [InlineItem] {
        guard let value = top.value("items") else { return [] }
        guard case .array(let entries) = value else {
            throw .wrongType(file: top.file, path: "items", expected: "an array of items such as {\"id\": \"greeting\", \"text\": \"Hello.\"}", found: value.summary)
        }
        var items: [InlineItem] = []
        var seen: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let path = "items[\(index)]"
            let reader = try RecipeObjectReader(entry, file: top.file, path: path, allowedKeys: InlineItem.recipeKeys)
            guard let id = try reader.string("id"), !id.isEmpty else {
                throw .missingKey(file: top.file, path: "\(path).id", expected: "\"id\": \"greeting\", the name its audio is exported under")
            }
            // Pack entries are named after ids: keep them to file-name characters.
            guard id.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.".unicodeScalars.contains($0)) }),
                  !id.hasPrefix(".")
            else {
                throw .invalidValue(file: top.file, path: "\(path).id", found: "\"\(id)\"", allowed: "letters, digits, \"-\", \"_\" and \".\" (not first), so it can name a file")
            }
            if let first = seen[id] {
                throw .invalidValue(file: top.file, path: "\(path).id", found: "\"\(id)\", already the id of items[\(first)]", allowed: "a unique id")
            }
            seen[id] = index
            let kind = reader.value("kind") == nil ? InlineItem.Kind.dialogue : try reader.choice("kind", default: InlineItem.Kind.dialogue)
            let character = try reader.string("character").flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            if character != nil && kind != .dialogue {
                throw .invalidValue(file: top.file, path: "\(path).character", found: "a character on a \(kind.rawValue) item", allowed: "\"character\" only on dialogue items")
            }
            if kind == .article {
                for key in ["text"] where reader.value(key) != nil {
                    throw .invalidValue(file: top.file, path: "\(path).\(key)", found: "\"text\" on an article", allowed: "\"title\", \"author\" and \"body\"")
                }
                let title = try reader.string("title")
                let author = try reader.string("author")
                let body = try reader.string("body")
                guard title != nil || body != nil else {
                    throw .missingKey(file: top.file, path: "\(path).body", expected: "\"title\" and \"body\" (and optionally \"author\")")
                }
                items.append(InlineItem(id: id, kind: .article, title: title, author: author, body: body))
                continue
            }
            for key in ["title", "author", "body"] where reader.value(key) != nil {
                throw .invalidValue(file: top.file, path: "\(path).\(key)", found: "\"\(key)\" on a \(kind.rawValue) item", allowed: "\"\(key)\" only with \"kind\": \"article\"")
            }
            guard let text = try reader.string("text"), text.unicodeScalars.contains(where: Tokenizer.isWordScalar) else {
                throw .missingKey(file: top.file, path: "\(path).text", expected: "\"text\" with words to speak")
            }
            items.append(InlineItem(id: id, kind: kind, text: text, character: character))
        }
        return items
    }
}
