extension VerifySettings: RecipeSection {
    /// Reads the recipe's `verify` object.
    init(recipe reader: RecipeObjectReader<RecipeKey>) throws(RecipeError) {
        self.init()
        required = try reader.boolean(.required, default: false)
        maxWordErrorRate = try reader.fraction(.maxWordErrorRate)
        mode = try reader.choice(.mode, default: VerifyMode.full)
        if reader.value(.jobs) != nil {
            jobs = try reader.integer(.jobs, in: BuildSettings.allowedJobs, default: 1, unit: "decoders")
        }
    }
}
