import Foundation

extension Recipe {
    /// Reads every source and splits it into chapters and items; writes nothing, so a bad
    /// document stops a build before its output directory is touched.
    public func splitSources() throws -> SplitResult {
        let (documents, _) = try SourceLoader().load(sources)
        let result = Splitter(settings: split, language: language).split(documents)
        guard !result.items.isEmpty else {
            throw TextError.noSpeakableText(files: sources.map(\.displayPath))
        }
        return result
    }
}
