extension SplitSettings: RecipeSection {
    /// Reads the recipe's `split` object; absent keys keep their defaults.
    init(recipe reader: RecipeObjectReader<RecipeKey>) throws(RecipeError) {
        self.init()
        unit = try reader.choice(.unit, default: unit)
        maxCharacters = try reader.integer(.maxCharacters, in: Self.allowedMaxCharacters, default: maxCharacters, unit: "characters")
        announceCharacters = try reader.choice(.announceCharacters, default: announceCharacters)
        keepGutenbergMatter = try reader.boolean(.keepGutenbergMatter, default: false)
    }
}
