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
        if let value = reader.value(.accept) {
            let path = reader.fieldPath(.accept)
            guard case .object(let pairs) = value else {
                throw .wrongType(
                    file: reader.file, path: path, expected: "an object of item ids and their audio's SHA-256",
                    found: value.summary)
            }
            for pair in pairs {
                guard case .string(let digest) = pair.value else {
                    throw .wrongType(
                        file: reader.file, path: RecipeError.join(path, pair.key), expected: "a string",
                        found: pair.value.summary)
                }
                if let problem = VerifySettings.digestProblem(digest) {
                    throw .invalidValue(
                        file: reader.file, path: RecipeError.join(path, pair.key), found: pair.value.summary,
                        allowed: problem)
                }
                accepted[pair.key] = digest.lowercased()
            }
        }
    }
}
