import Foundation

extension RemoteCacheSettings: RecipeSection {
    /// Reads the recipe's `cache` object; `remote` is required.
    init(recipe reader: RecipeObjectReader<RecipeKey>) throws(RecipeError) {
        guard let text = try reader.string(.remote) else {
            throw .missingKey(
                file: reader.file, path: reader.fieldPath(.remote),
                expected: "\"remote\": \"http://cache.example:8080/forge\" (a Bazel HTTP cache)")
        }
        switch Self.parseURL(text) {
        case .failure(let problem):
            throw .invalidValue(
                file: reader.file, path: reader.fieldPath(.remote), found: "\"\(Self.redacted(text))\"",
                allowed: "an http:// or https:// URL (\(problem.explanation))")
        case .success(let url):
            self.init(url: url)
        }
        readOnly = try reader.boolean(.readOnly, default: false)
        required = try reader.boolean(.required, default: false)
        downloadAll = try reader.boolean(.downloadAll, default: false)
        timeoutSeconds = try reader.integer(
            .timeoutSeconds, in: Self.allowedTimeoutSeconds, default: timeoutSeconds, unit: "seconds")
        connectTimeoutSeconds = try reader.integer(
            .connectTimeoutSeconds, in: Self.allowedTimeoutSeconds, default: connectTimeoutSeconds, unit: "seconds")
        minimumBytesPerSecond = try reader.integer(
            .minimumBytesPerSecond, in: Self.allowedMinimumBytesPerSecond, default: minimumBytesPerSecond,
            unit: "bytes per second")
        deadlineSeconds = try reader.integer(
            .deadlineSeconds, in: Self.allowedTimeoutSeconds, default: deadlineSeconds, unit: "seconds")
    }
}
