/// What a build asked of one speech service: the figures its summary reports.
package struct SpeechServiceUsage: Sendable, Equatable, Codable {
    /// The engine's name in the recipe.
    package var engine: String
    /// Requests sent, retries included.
    package var requests = 0
    /// Characters sent, retries included (what a service bills).
    package var characters = 0
    /// Requests sent again after a 429, a 5xx or a timeout.
    package var retries = 0
    /// Items the service gave no usable audio for.
    package var failedItems = 0

    package init(engine: String) {
        self.engine = engine
    }
}
