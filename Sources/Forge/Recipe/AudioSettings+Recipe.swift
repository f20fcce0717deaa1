extension AudioSettings: RecipeSection {
    /// Reads the recipe's `audio` object; absent keys keep their defaults.
    init(recipe reader: RecipeObjectReader<RecipeKey>) throws(RecipeError) {
        self.init()
        format = try reader.choice(.format, default: format)
        // Opus has rates of its own: without a sampleRate it is written at its native 48 kHz.
        let rates = format.sampleRates ?? Self.allowedSampleRates
        sampleRate = try reader.integer(
            .sampleRate, oneOf: rates, default: format == .opus ? 48000 : sampleRate,
            unit: format == .opus ? "Hz (the rates Opus is written at)" : "Hz")
    }
}
