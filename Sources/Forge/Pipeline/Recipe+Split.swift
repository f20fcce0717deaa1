import Foundation

extension Recipe {
    /// Reads every source and splits it into chapters and items; writes nothing, so a bad
    /// document stops a build before its output directory is touched.
    package func splitSources() throws -> SplitResult {
        var loader = SourceLoader(keepsGutenbergMatter: split.keepGutenbergMatter, headingPatterns: split.headings)
        loader.readsTextAsMarkdown = split.headingsFromMarkup
        loader.keepsFrontMatter = split.keepFrontMatter
        let loaded = try loader.load(sources)
        var documents = loaded.documents.map(SplitSource.document)
        if !items.isEmpty { documents.append(.inline(items, title: title ?? "Items", path: file.path)) }
        var result = Splitter(settings: split, language: language).split(documents)
        result.readings = loaded.readings
        guard !result.items.isEmpty else {
            throw TextError.noSpeakableText(files: sources.map(\.displayPath) + (items.isEmpty ? [] : [file.path]))
        }
        return result
    }
}
