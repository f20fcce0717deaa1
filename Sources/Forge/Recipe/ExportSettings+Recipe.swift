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

    /// Reads the recipe's `credits`: absent or `true` for the default credits, `false` for none, or
    /// an object whose `opening` and `closing` each give a credit's text (absent: the default;
    /// `false`: none).
    mutating func read(creditsOf top: RecipeObjectReader<Recipe.Key>) throws(RecipeError) {
        credits = true
        guard let value = top.value(.credits) else { return }
        if case .bool(let flag) = value {
            credits = flag
            return
        }
        guard case .object = value else {
            throw .wrongType(
                file: top.file, path: top.fieldPath(.credits),
                expected: "true, false, or an object of \"opening\" and \"closing\" texts", found: value.summary)
        }
        let reader = try RecipeObjectReader<CreditRecipeKey>(value, file: top.file, path: top.fieldPath(.credits))
        func text(_ key: CreditRecipeKey) throws(RecipeError) -> String? {
            if case .bool(false) = reader.value(key) { return "" }
            guard let text = try reader.string(key) else { return nil }
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw .invalidValue(
                    file: top.file, path: reader.fieldPath(key), found: "an empty text",
                    allowed: "the credit's text, or false for none")
            }
            return text
        }
        openingCredit = try text(.opening)
        closingCredit = try text(.closing)
    }
}
