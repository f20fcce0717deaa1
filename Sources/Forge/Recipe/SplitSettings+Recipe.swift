extension SplitSettings: RecipeSection {
    /// Reads the recipe's `split` object; absent keys keep their defaults.
    init(recipe reader: RecipeObjectReader<RecipeKey>) throws(RecipeError) {
        self.init()
        unit = try reader.choice(.unit, default: unit)
        maxCharacters = try reader.integer(.maxCharacters, in: Self.allowedMaxCharacters, default: maxCharacters, unit: "characters")
        announceCharacters = try reader.choice(.announceCharacters, default: announceCharacters)
        keepGutenbergMatter = try reader.boolean(.keepGutenbergMatter, default: false)
        if let rules = try reader.object(.headings, keys: HeadingPatterns.RecipeKey.self) {
            var patterns = HeadingPatterns()
            for key in HeadingPatterns.RecipeKey.allCases {
                guard let pattern = try rules.string(key) else { continue }
                if let problem = HeadingPatterns.problem(with: pattern) {
                    throw .invalidValue(
                        file: rules.file, path: rules.fieldPath(key), found: JSONValue.string(pattern).summary,
                        allowed: "a regular expression that matches a heading line (\(problem))")
                }
                switch key {
                case .chapter: patterns.chapter = pattern
                case .part: patterns.part = pattern
                case .section: patterns.section = pattern
                }
            }
            headings = patterns
        }
    }
}
