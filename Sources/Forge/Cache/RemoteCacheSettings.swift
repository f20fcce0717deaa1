import Foundation

/// A remote cache that builds share objects through: a server speaking the Bazel HTTP
/// remote-cache protocol (bazel-remote, nginx with WebDAV `PUT`, the hosted Bazel caches).
///
/// From the recipe's `cache` object, `--remote-cache` or `FORGE_REMOTE_CACHE`. The optional
/// authorization header comes only from the environment (``headerVariable``): it is never
/// printed, never written to the manifest, and URLs with credentials in them are refused.
package struct RemoteCacheSettings: Sendable, Equatable {
    /// The keys of the recipe's `cache` object (read by `RemoteCacheSettings(recipe:)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable {
        case remote, readOnly, required, downloadAll, timeoutSeconds, connectTimeoutSeconds, minimumBytesPerSecond,
            deadlineSeconds
    }
    package static let allowedTimeoutSeconds = 1...600
    package static let allowedMinimumBytesPerSecond = 1...(1 << 30)
    /// The environment variable naming the cache's base URL (below `--remote-cache`, above the recipe).
    package static let urlVariable = "FORGE_REMOTE_CACHE"
    /// The environment variable holding one header sent with every request, as `Name: value`
    /// (for example `Authorization: Bearer …`).
    package static let headerVariable = "FORGE_REMOTE_CACHE_HEADER"

    /// The base URL; entries live at `{url}/ac/{sha256}` and blobs at `{url}/cas/{sha256}`.
    package var url: URL
    /// Only read: never upload (for jobs that run untrusted changes, such as pull requests).
    package var readOnly = false
    /// Fail the build when the cache cannot be reached, instead of building locally with a warning.
    package var required = false
    /// Download every item's audio a whole build finds in the cache, instead of leaving it there
    /// until a stage needs its samples (Bazel's "build without the bytes" is the default).
    package var downloadAll = false
    /// How long a request may go slower than ``minimumBytesPerSecond`` (a server that does not
    /// answer, or trickles) before the cache counts as unavailable.
    package var timeoutSeconds = 10
    /// How long connecting to the server may take.
    package var connectTimeoutSeconds = 5
    /// The speed under which a request counts as stalled (curl's `--speed-limit`).
    package var minimumBytesPerSecond = 1024
    /// The most one request may take, however steadily it trickles.
    package var deadlineSeconds = 120

    package init(url: URL, readOnly: Bool = false, required: Bool = false, timeoutSeconds: Int = 10) {
        self.url = url
        self.readOnly = readOnly
        self.required = required
        self.timeoutSeconds = timeoutSeconds
    }

    /// The bounds of every request to this cache.
    package var limits: HTTPLimits {
        HTTPLimits(
            connectTimeoutSeconds: connectTimeoutSeconds, lowSpeedSeconds: timeoutSeconds,
            minimumBytesPerSecond: minimumBytesPerSecond, deadlineSeconds: deadlineSeconds)
    }

    /// The cache's name in messages and in the manifest's record of uploads: its URL, which never
    /// holds credentials.
    package var name: String { url.absoluteString }

    /// `text` with any `user:password@` replaced, for messages about a refused URL.
    package static func redacted(_ text: String) -> String {
        text.replacingOccurrences(of: #"//[^/@]*@"#, with: "//…@", options: .regularExpression)
    }

    /// Checks a cache URL: the URL without a trailing slash, or why it cannot be used.
    package static func parseURL(_ text: String) -> Result<URL, URLProblem> {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty, let url = components.url
        else { return .failure(.notAURL) }
        guard scheme == "http" || scheme == "https" else { return .failure(.scheme(scheme)) }
        if components.user != nil || components.password != nil { return .failure(.credentials) }
        if components.query != nil || components.fragment != nil { return .failure(.queryOrFragment) }
        return .success(url)
    }

    /// Why a cache URL was refused.
    package enum URLProblem: Error, Sendable, Equatable {
        case notAURL
        case scheme(String)
        case credentials, queryOrFragment

        package var explanation: String {
            switch self {
            case .notAURL: "not an http:// or https:// URL with a host"
            case .scheme(let scheme): "the scheme \"\(scheme)\" is not http or https"
            case .credentials:
                "credentials in a URL would be printed and recorded; give them as a header in \(RemoteCacheSettings.headerVariable) (\"Authorization: Basic …\")"
            case .queryOrFragment: "a query or fragment has no place in a cache's base URL"
            }
        }
    }

    /// The header in `FORGE_REMOTE_CACHE_HEADER`, split at its first colon; nil when unset.
    /// Throws when it is set but not `Name: value` (the value itself is never part of a message).
    package static func header(from environment: [String: String]) throws(RemoteCacheError) -> (
        name: String, value: String
    )? {
        guard let line = environment[headerVariable], !line.isEmpty else { return nil }
        // A CR or LF would end the header early or smuggle in another: refused, never cut.
        guard !line.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .malformedHeader(variable: headerVariable)
        }
        guard let colon = line.firstIndex(of: ":") else { throw .malformedHeader(variable: headerVariable) }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, !value.isEmpty,
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else {
            throw .malformedHeader(variable: headerVariable)
        }
        return (name, value)
    }
}
