extension BuildSettings: RecipeSection {
    /// Reads the recipe's `build` object; absent keys keep their defaults.
    init(recipe reader: RecipeObjectReader<RecipeKey>) throws(RecipeError) {
        self.init()
        if reader.value(.saveInterval) != nil {
            saveInterval = try reader.integer(.saveInterval, in: Self.allowedSaveIntervals, default: 1, unit: "items")
        }
        jobs = try reader.integer(.jobs, in: Self.allowedJobs, default: jobs, unit: "worker processes")
    }
}
