import Foundation

/// An external program that speaks Forge's command-engine protocol (`docs/engines.md`), declared
/// under the recipe's `engines` and named by voices as `name:voice`.
package struct CommandEngineSettings: Sendable, Equatable, Codable {
    /// The name voices use, e.g. `piper`.
    package var name: String
    /// The program and its arguments; a first element with a `/` is resolved against the recipe's folder.
    package var command: [String]
    /// How long one item may take before the engine is considered hung.
    package var timeoutSeconds: Int

    package static let allowedTimeouts = 1...3600
    /// The keys of an entry of the recipe's `engines` (read by `CommandEngineSettings.read(recipe:…)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable { case command, timeoutSeconds }

    package init(name: String, command: [String], timeoutSeconds: Int = 300) {
        self.name = name
        self.command = command
        self.timeoutSeconds = timeoutSeconds
    }
}
