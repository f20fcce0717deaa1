import Foundation

extension StageRun {
    /// Reads the sources, splits them and makes the manifest's items match.
    mutating func split() throws {
        var documents: [(path: String, format: SourceFile.Format, text: String)] = []
        for source in recipe.sources {
            documents.append((source.url.path, source.format, try SourceReader.read(source.url)))
        }
        let result = Splitter(settings: recipe.split).split(documents)
        guard !result.items.isEmpty else {
            throw TextError.noSpeakableText(files: recipe.sources.map(\.url.path))
        }
        let changed = try manifest.synchronize(with: result)
        itemsTotal = result.items.count
        progress(.split(chapters: result.chapters.count, items: result.items.count, words: result.wordCount, changedItems: changed))
    }
}
