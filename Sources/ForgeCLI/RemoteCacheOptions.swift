import ArgumentParser
import Forge
import Foundation

/// The remote cache a build shares objects through: `--remote-cache` over `FORGE_REMOTE_CACHE`
/// over the recipe's `cache` object.
struct RemoteCacheOptions: ParsableArguments {
    @Option(
        name: .customLong("remote-cache"),
        help: ArgumentHelp(
            "A Bazel HTTP remote cache to download items from and upload them to (overrides cache.remote and FORGE_REMOTE_CACHE). An authorization header goes in FORGE_REMOTE_CACHE_HEADER.",
            valueName: "url"))
    var url: String?

    @Flag(
        name: .customLong("remote-cache-read-only"),
        help: "Download from the remote cache, never upload (for untrusted changes such as pull requests).")
    var readOnly = false

    @Flag(
        name: .customLong("remote-cache-required"),
        help: "Fail (exit 3) when the remote cache cannot be used, instead of building locally with a warning.")
    var required = false

    @Flag(
        name: .customLong("remote-download-all"),
        help:
            "Download every item's audio found in the remote cache (cache.downloadAll); by default a build leaves it there until a stage needs its samples."
    )
    var downloadAll = false

    func validate() throws {
        if let url, case .failure(let problem) = RemoteCacheSettings.parseURL(url) {
            throw ValidationError("--remote-cache \(RemoteCacheSettings.redacted(url)): \(problem.explanation).")
        }
    }

    /// `recipe` with the cache these options and the environment choose.
    func apply(to recipe: Recipe, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Recipe
    {
        var recipe = recipe
        let text = url ?? environment[RemoteCacheSettings.urlVariable].flatMap { $0.isEmpty ? nil : $0 }
        if let text {
            switch RemoteCacheSettings.parseURL(text) {
            case .success(let url):
                var settings = recipe.cache ?? RemoteCacheSettings(url: url)
                settings.url = url
                recipe.cache = settings
            case .failure(let problem):
                let source = self.url == nil ? RemoteCacheSettings.urlVariable : "--remote-cache"
                throw CommandFailure(
                    message: "\(source) \(RemoteCacheSettings.redacted(text)): \(problem.explanation).", code: .usage)
            }
        }
        if readOnly { recipe.cache?.readOnly = true }
        if required { recipe.cache?.required = true }
        if downloadAll { recipe.cache?.downloadAll = true }
        // Read-only without a cache is harmless (a pull request from a fork gets no cache secret);
        // a required cache that is not configured is a mistake.
        if required && recipe.cache == nil {
            throw CommandFailure(
                message:
                    "--remote-cache-required needs a cache: give --remote-cache URL, FORGE_REMOTE_CACHE or \"cache\" in the recipe.",
                code: .usage)
        }
        return recipe
    }
}
