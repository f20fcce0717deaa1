extension AlignmentSettings: RecipeSection {
    /// Reads the recipe's `alignment` object.
    init(recipe reader: RecipeObjectReader<RecipeKey>) throws(RecipeError) {
        self.init()
        method = try reader.choice(.method, default: method)
    }
}
