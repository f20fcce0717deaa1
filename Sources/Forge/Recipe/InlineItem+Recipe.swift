import Foundation

extension InlineItem {
    /// Reads `items[index]`: an id and text (dialogue or narration, optionally a character), or for
    /// an article a title, author and body. The id's uniqueness is the list's to check.
    static func read(recipe entry: JSONValue, file: String, path: String) throws(RecipeError) -> InlineItem {
        let reader = try RecipeObjectReader<RecipeKey>(entry, file: file, path: path)
        guard let id = try reader.string(.id), !id.isEmpty else {
            throw .missingKey(
                file: file, path: reader.fieldPath(.id),
                expected: "\"id\": \"greeting\", the name its audio is exported under")
        }
        // Pack entries are named after ids: keep them to file-name characters.
        guard
            id.unicodeScalars.allSatisfy({
                $0.isASCII
                    && ($0.properties.isAlphabetic || $0.properties.numericType != nil
                        || "-_.".unicodeScalars.contains($0))
            }),
            !id.hasPrefix(".")
        else {
            throw .invalidValue(
                file: file, path: reader.fieldPath(.id), found: "\"\(id)\"",
                allowed: "letters, digits, \"-\", \"_\" and \".\" (not first), so it can name a file")
        }
        let kind = reader.value(.kind) == nil ? Kind.dialogue : try reader.choice(.kind, default: Kind.dialogue)
        let character = try reader.string(.character).flatMap {
            $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0
        }
        if character != nil && kind != .dialogue {
            throw .invalidValue(
                file: file, path: reader.fieldPath(.character), found: "a character on a \(kind.rawValue) item",
                allowed: "\"character\" only on dialogue items")
        }
        if kind == .article {
            if reader.value(.text) != nil {
                throw .invalidValue(
                    file: file, path: reader.fieldPath(.text), found: "\"text\" on an article",
                    allowed: "\"title\", \"author\" and \"body\"")
            }
            let title = try reader.string(.title)
            let author = try reader.string(.author)
            let body = try reader.string(.body)
            guard title != nil || body != nil else {
                throw .missingKey(
                    file: file, path: reader.fieldPath(.body),
                    expected: "\"title\" and \"body\" (and optionally \"author\")")
            }
            return InlineItem(id: id, kind: .article, title: title, author: author, body: body)
        }
        for key in [RecipeKey.title, .author, .body] where reader.value(key) != nil {
            throw .invalidValue(
                file: file, path: reader.fieldPath(key), found: "\"\(key.rawValue)\" on a \(kind.rawValue) item",
                allowed: "\"\(key.rawValue)\" only with \"kind\": \"article\"")
        }
        guard let text = try reader.string(.text), text.unicodeScalars.contains(where: Tokenizer.isWordScalar) else {
            throw .missingKey(file: file, path: reader.fieldPath(.text), expected: "\"text\" with words to speak")
        }
        return InlineItem(id: id, kind: kind, text: text, character: character)
    }
}
