/// Why one request to a speech service gave no audio, and what follows from it.
package enum SpeechServiceFailure: Error, Sendable, Equatable {
    /// Refused for the moment (429, a 5xx, a timeout, a dropped connection): tried again, after
    /// `retryAfter` when the service said how long to wait.
    case retryable(String, retryAfter: Duration?)
    /// The service refused the key (401, 403): no request will do better, so the build stops.
    case keyRefused(String)
    /// This item cannot be had from the service (a 400, audio that does not decode or does not fit
    /// its text, a redirect): the item fails, or goes to the fallback voice.
    case item(String)
    /// The build was stopped while the request was in flight.
    case cancelled

    /// The reason in words: the service's own message, cut to a line, never a header.
    package var reason: String {
        switch self {
        case .retryable(let text, _), .keyRefused(let text), .item(let text): text
        case .cancelled: "cancelled"
        }
    }

    /// Whether the failure is the service's rather than the item's: a run of them stops the build.
    package var isServiceFault: Bool {
        switch self {
        case .retryable, .keyRefused: true
        case .item, .cancelled: false
        }
    }
}
