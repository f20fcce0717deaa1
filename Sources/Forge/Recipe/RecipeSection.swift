/// A settings type read from one object of a recipe (`split`, `audio`, `build`, …) against the
/// keys it declares: its `RecipeKey` enum is the object's schema, its `init(recipe:)` the reading.
protocol RecipeSection {
    associatedtype RecipeKey: RawRepresentable & CaseIterable where RecipeKey.RawValue == String
    init(recipe reader: RecipeObjectReader<RecipeKey>) throws(RecipeError)
}

extension RecipeObjectReader {
    /// The section under `key`, read against the keys it declares; nil when absent.
    func section<Section: RecipeSection>(_ key: Key, as type: Section.Type) throws(RecipeError) -> Section? {
        guard let reader = try object(key, keys: Section.RecipeKey.self) else { return nil }
        return try Section(recipe: reader)
    }
}
