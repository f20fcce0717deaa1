extension SplitSettings: RecipeSection {
    /// Reads the recipe's `split` object; absent keys keep their defaults.
    init(recipe reader: RecipeObjectReader<RecipeKey>) throws(RecipeError) {
        self.init()
        unit = try reader.choice(.unit, default: unit)
        maxCharacters = try reader.integer(
            .maxCharacters, in: Self.allowedMaxCharacters, default: maxCharacters, unit: "characters")
        announceCharacters = try reader.choice(.announceCharacters, default: announceCharacters)
        keepGutenbergMatter = try reader.boolean(.keepGutenbergMatter, default: false)
        keepFrontMatter = try reader.boolean(.keepFrontMatter, default: false)
        if case .string(let rule)? = reader.value(.headings) {
            guard rule == "markdown" else {
                throw .invalidValue(
                    file: reader.file, path: reader.fieldPath(.headings), found: JSONValue.string(rule).summary,
                    allowed:
                        "\"markdown\" (headings only where the markup puts them) or an object of patterns ({ \"chapter\": \"^Letter [0-9]+$\" })"
                )
            }
            headingsFromMarkup = true
        } else if let rules = try reader.object(.headings, keys: HeadingPatterns.RecipeKey.self) {
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
