extension ExportSettings {
    /// Reads the recipe's `exports`: a list of formats, or an object of `formats`, `pauses` and cue
    /// and overlay settings; absent keys keep their defaults.
    mutating func read(exportsOf top: RecipeObjectReader<Recipe.Key>) throws(RecipeError) {
        guard let value = top.value(.exports) else { return }
        if case .array = value {
            formats = try top.choices(.exports) ?? formats
            return
        }
        let reader = try RecipeObjectReader<RecipeKey>(value, file: top.file, path: top.fieldPath(.exports))
        formats = try reader.choices(.formats) ?? formats
        if let pauses = try reader.object(.pauses, keys: PauseRecipeKey.self) {
            sentencePauseMs = try pauses.integer(
                .sentenceMs, in: Self.allowedPauses, default: sentencePauseMs, unit: "ms")
            paragraphPauseMs = try pauses.integer(
                .paragraphMs, in: Self.allowedPauses, default: paragraphPauseMs, unit: "ms")
            chapterPauseMs = try pauses.integer(.chapterMs, in: Self.allowedPauses, default: chapterPauseMs, unit: "ms")
        }
        maxCueCharacters = try reader.integer(
            .maxCueCharacters, in: Self.allowedCueCharacters, default: maxCueCharacters, unit: "characters")
        wordLevelOverlays = try reader.boolean(.wordLevelOverlays, default: wordLevelOverlays)
        epubAudio = try reader.choice(.epubAudio, default: epubAudio)
    }

    /// Reads the recipe's `credits` object: the opening and closing credit's text.
    mutating func read(credits reader: RecipeObjectReader<CreditRecipeKey>) throws(RecipeError) {
        openingCredit = try reader.string(.opening)
        closingCredit = try reader.string(.closing)
    }
}
