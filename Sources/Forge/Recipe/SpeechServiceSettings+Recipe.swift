import Foundation

extension SpeechServiceSettings {
    /// Reads `engines.<name>` when it has an `api`: `{"api": "openai", "url": "https://api.openai.com/v1",
    /// "model": "tts-1", "keyVariable": "OPENAI_API_KEY", …}`. A key written in the recipe is
    /// refused, naming the environment variable to put it in.
    static func read(recipe entry: JSONValue, name: String, file: String, path: String) throws(RecipeError)
        -> SpeechServiceSettings
    {
        if case .object(let pairs) = entry, let secret = pairs.first(where: { secretKeys.contains($0.key) }) {
            throw .invalidValue(
                file: file, path: RecipeError.join(path, secret.key), found: "an API key written in the recipe",
                allowed:
                    "no key in the recipe: put it in an environment variable and name that variable in \"keyVariable\", e.g. \"keyVariable\": \"\(name.uppercased().replacingOccurrences(of: "-", with: "_"))_API_KEY\""
            )
        }
        let reader = try RecipeObjectReader<RecipeKey>(entry, file: file, path: path)
        let api = try reader.choice(.api, default: API.openai)
        guard let address = try reader.string(.url) else {
            throw .missingKey(
                file: file, path: reader.fieldPath(.url), expected: "\"url\": \"https://api.openai.com/v1\"")
        }
        guard let url = URL(string: address), urlProblem(url) == nil else {
            let problem = URL(string: address).flatMap(urlProblem) ?? "an http:// or https:// address"
            throw .invalidValue(
                file: file, path: reader.fieldPath(.url), found: "\"\(Self.withoutCredentials(address))\"",
                allowed: problem)
        }
        guard let model = try reader.string(.model), !model.isEmpty else {
            throw .missingKey(
                file: file, path: reader.fieldPath(.model),
                expected: api == .openai ? "\"model\": \"tts-1\"" : "\"model\": \"eleven_multilingual_v2\"")
        }
        let keyVariable = try reader.string(.keyVariable)
        if let keyVariable, !SpeechServiceKeyGrants.isVariableName(keyVariable) {
            throw .invalidValue(
                file: file, path: reader.fieldPath(.keyVariable), found: "a value that is not a variable name",
                allowed: "the name of an environment variable, e.g. \"OPENAI_API_KEY\"")
        }
        func perMinute(_ key: RecipeKey) throws(RecipeError) -> Int? {
            reader.value(key) == nil
                ? nil : try reader.integer(key, in: allowedPerMinute, default: 1, unit: "per minute")
        }
        return SpeechServiceSettings(
            name: name, api: api, url: url, model: model, keyVariable: keyVariable,
            version: try reader.string(.version),
            maxCharacters: try reader.integer(
                .maxCharacters, in: allowedMaxCharacters, default: api.defaultMaxCharacters, unit: "characters"),
            concurrency: try reader.integer(.concurrency, in: allowedConcurrency, default: 4, unit: "requests"),
            requestsPerMinute: try perMinute(.requestsPerMinute),
            charactersPerMinute: try perMinute(.charactersPerMinute),
            timeoutSeconds: try reader.integer(.timeoutSeconds, in: allowedTimeouts, default: 120, unit: "seconds"),
            retries: try reader.integer(.retries, in: allowedRetries, default: 5),
            retryDelayMs: try reader.integer(.retryDelayMs, in: allowedRetryDelaysMs, default: 1000, unit: "ms"),
            failuresToStop: try reader.integer(.failuresToStop, in: allowedFailuresToStop, default: 3, unit: "items"),
            pricePerThousandCharacters: try reader.number(
                .pricePerThousandCharacters, in: 0...1_000_000, default: nil, unit: "per thousand characters"))
    }

    /// An address as an error may show it: without anything before an `@` in its authority.
    private static func withoutCredentials(_ address: String) -> String {
        guard let scheme = address.range(of: "://"), let at = address[scheme.upperBound...].firstIndex(of: "@") else {
            return address
        }
        return String(address[..<scheme.upperBound]) + "…@" + address[address.index(after: at)...]
    }
}
