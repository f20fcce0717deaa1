import Foundation

extension SourceFile {
    /// One entry of the recipe's `sources` as written: a path, and from an object its format and
    /// EPUB spine selection. The path is neither resolved nor checked here.
    struct RecipeEntry {
        var path: String
        var format: Format?
        var include: [String] = []
        var exclude: [String] = []
    }

    /// Reads `sources[index]`: a path string, or an object with `path`, `format`, `include`, `exclude`.
    static func read(recipe entry: JSONValue, file: String, path: String) throws(RecipeError) -> RecipeEntry {
        var result: RecipeEntry
        switch entry {
        case .string(let text):
            result = RecipeEntry(path: text)
        case .object:
            let reader = try RecipeObjectReader<RecipeKey>(entry, file: file, path: path)
            guard let text = try reader.string(.path) else {
                throw .missingKey(file: file, path: reader.fieldPath(.path), expected: "\"path\": \"book.txt\"")
            }
            result = RecipeEntry(path: text)
            if reader.value(.format) != nil {
                result.format = try reader.choice(.format, default: Format.text)
            }
            result.include = try reader.strings(.include)
            result.exclude = try reader.strings(.exclude)
            let selection: RecipeKey = result.include.isEmpty ? .exclude : .include
            if !text.isEmpty, !result.include.isEmpty || !result.exclude.isEmpty,
                (result.format ?? inferredFormat(for: URL(fileURLWithPath: text))) != .epub
            {
                throw .invalidValue(
                    file: file, path: reader.fieldPath(selection),
                    found: "a spine selection for a source that is not an EPUB",
                    allowed: "\"include\"/\"exclude\" only on .epub sources (or with \"format\": \"epub\")")
            }
        default:
            throw .wrongType(
                file: file, path: path, expected: "a file path string or an object with \"path\"", found: entry.summary)
        }
        guard !result.path.isEmpty else {
            throw .invalidValue(file: file, path: path, found: "an empty string", allowed: "a file path")
        }
        return result
    }
}
