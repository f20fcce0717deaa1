extension RecipeLoader {
    /// `items`: inline entries with an id and text (or, for an article, title, author and body).
    func readItems(_ top: RecipeObjectReader<Recipe.Key>) throws(RecipeError) -> [InlineItem] {
        guard let value = top.value(.items) else { return [] }
        guard case .array(let entries) = value else {
            throw .wrongType(
                file: top.file, path: top.fieldPath(.items),
                expected: "an array of items such as {\"id\": \"greeting\", \"text\": \"Hello.\"}", found: value.summary
            )
        }
        var items: [InlineItem] = []
        var seen: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let path = "items[\(index)]"
            let item = try InlineItem.read(recipe: entry, file: top.file, path: path)
            if let first = seen[item.id] {
                throw .invalidValue(
                    file: top.file, path: "\(path).id", found: "\"\(item.id)\", already the id of items[\(first)]",
                    allowed: "a unique id")
            }
            seen[item.id] = index
            items.append(item)
        }
        return items
    }
}
