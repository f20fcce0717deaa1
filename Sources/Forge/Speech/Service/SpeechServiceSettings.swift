import Foundation

/// A speech service reached over HTTP, declared under the recipe's `engines` with an `api` and
/// named by voices as `name:voice` (docs/engines.md). Nothing here is secret: the key is read from
/// the environment variable ``keyVariable`` names, and only when the command line allows that
/// variable to go to the service's host (``SpeechServiceKeyGrants``).
package struct SpeechServiceSettings: Sendable, Equatable, Codable {
    /// The two request shapes the field has settled on.
    package enum API: String, Sendable, Codable, CaseIterable {
        /// `POST {url}/audio/speech` with `model`, `voice`, `input`, `response_format`, `speed`:
        /// OpenAI's, and what most self-hosted neural servers implement.
        case openai
        /// `POST {url}/text-to-speech/{voice}/with-timestamps`: ElevenLabs', with each character's
        /// start and end time, from which words are timed without aligning.
        case elevenlabs
    }

    /// The keys of an entry of the recipe's `engines` that has an `api`; others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable {
        case api, url, model, keyVariable, version, maxCharacters, concurrency, requestsPerMinute,
            charactersPerMinute, timeoutSeconds, retries, retryDelayMs, failuresToStop, pricePerThousandCharacters
    }

    /// Keys that would hold a secret in the recipe itself, refused with a message naming ``RecipeKey/keyVariable``.
    package static let secretKeys: Set<String> = [
        "key", "apiKey", "api_key", "token", "secret", "password", "authorization", "xi-api-key",
    ]

    package static let allowedMaxCharacters = 100...100_000
    package static let allowedConcurrency = 1...64
    package static let allowedPerMinute = 1...10_000_000
    package static let allowedTimeouts = 1...3600
    package static let allowedRetries = 0...20
    package static let allowedRetryDelaysMs = 1...600_000
    package static let allowedFailuresToStop = 1...1000

    /// The name voices use, e.g. `openai`.
    package var name: String
    package var api: API
    /// The service's base URL, e.g. `https://api.openai.com/v1`: HTTPS, or HTTP to this machine only.
    package var url: URL
    /// The model the service speaks with (`tts-1`, `eleven_multilingual_v2`).
    package var model: String
    /// The environment variable holding the API key, or nil for a service that takes none.
    package var keyVariable: String?
    /// Set by the recipe to tell apart services that share an API and model name but speak otherwise
    /// (two self-hosted servers): part of every audio key, as the model is.
    package var version: String?
    /// The most characters one request may carry; longer text is sent in pieces cut at sentence ends.
    package var maxCharacters: Int
    /// Requests in flight at once.
    package var concurrency: Int
    package var requestsPerMinute: Int?
    package var charactersPerMinute: Int?
    /// How long one request may take, from connecting to the last byte.
    package var timeoutSeconds: Int
    /// How many times a request refused for the moment (429, 5xx, a timeout) is tried again.
    package var retries: Int
    /// The first retry's delay; each next one doubles, with jitter, up to a minute.
    package var retryDelayMs: Int
    /// Items failed in a row by the service (after their retries) that stop the build.
    package var failuresToStop: Int
    /// What the service charges per thousand characters sent, for `forge plan`'s estimate.
    package var pricePerThousandCharacters: Double?

    package init(
        name: String, api: API, url: URL, model: String, keyVariable: String? = nil, version: String? = nil,
        maxCharacters: Int? = nil, concurrency: Int = 4, requestsPerMinute: Int? = nil,
        charactersPerMinute: Int? = nil, timeoutSeconds: Int = 120, retries: Int = 5, retryDelayMs: Int = 1000,
        failuresToStop: Int = 3, pricePerThousandCharacters: Double? = nil
    ) {
        self.name = name
        self.api = api
        self.url = url
        self.model = model
        self.keyVariable = keyVariable
        self.version = version
        self.maxCharacters = maxCharacters ?? api.defaultMaxCharacters
        self.concurrency = concurrency
        self.requestsPerMinute = requestsPerMinute
        self.charactersPerMinute = charactersPerMinute
        self.timeoutSeconds = timeoutSeconds
        self.retries = retries
        self.retryDelayMs = retryDelayMs
        self.failuresToStop = failuresToStop
        self.pricePerThousandCharacters = pricePerThousandCharacters
    }

    /// What goes into the audio keys of this service's items: the API, the model and the recipe's
    /// `version`, never the URL or the key (the voice and its settings are in the key already).
    package var engineVersion: String {
        ([api.rawValue, model] + (version.map { [$0] } ?? [])).joined(separator: " ")
    }

    /// The host the key would be sent to.
    package var host: String { url.host ?? "" }

    /// Why `url` cannot be a service's, or nil: not HTTP(S), credentials or a query in it, or plain
    /// HTTP to another machine (the key and the book's text would cross the network unencrypted).
    package static func urlProblem(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
            return "an http:// or https:// address"
        }
        if url.user != nil || url.password != nil {
            return "an address without credentials (the key goes in the environment variable keyVariable names)"
        }
        if url.query != nil || url.fragment != nil { return "an address without a query or fragment" }
        if scheme == "http" && !isLoopback(url.host ?? "") {
            return "https:// (plain http:// only to this machine: 127.0.0.1, ::1, localhost)"
        }
        return nil
    }

    /// Whether `host` is this machine.
    package static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        return bare == "localhost" || bare == "::1" || bare.hasPrefix("127.")
    }
}

extension SpeechServiceSettings.API {
    /// The most characters the API takes in one request.
    package var defaultMaxCharacters: Int {
        switch self {
        case .openai: 4096
        case .elevenlabs: 5000
        }
    }
}
