import Foundation

/// A client of the Bazel HTTP remote-cache protocol: `GET`/`PUT` of `{base}/cas/{sha256}` (blobs,
/// addressed by the SHA-256 of their bytes) and `{base}/ac/{sha256}` (entries, addressed by a key).
///
/// Nothing a server does can hold a build or its memory: every request is bounded in time
/// (connect timeout, low-speed limit, deadline: ``RemoteCacheSettings``) and every answer in size
/// (an entry by ``entryLimit``, a blob by the size its entry names), on ``HTTPClient``. Every
/// failure is classified: a missing entry is a miss; no answer, a stall, a redirect or 5xx is
/// ``RemoteCacheError/unavailable(cache:reason:)``; an answer of the wrong size is
/// ``RemoteCacheError/badAnswer(cache:path:reason:)``; other 4xx are refusals.
package final class RemoteCache: Sendable {
    package let settings: RemoteCacheSettings
    private let client: HTTPClient
    private let header: String?

    package init(settings: RemoteCacheSettings, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(RemoteCacheError)
    {
        self.settings = settings
        header = try RemoteCacheSettings.header(from: environment).map { "\($0.name): \($0.value)" }
        client = HTTPClient(limits: settings.limits)
    }

    /// Requests in flight at once: downloads of missing items, and uploads beside synthesis.
    package static let connections = 8

    /// The largest action-cache entry read: forge's entries are a few kilobytes (a chunk's
    /// transcript, an item's alignment); anything larger is not one of them.
    package static let entryLimit = 1 << 20

    /// The largest blob read when its size is not known beforehand.
    package static let blobLimit = 256 << 20

    package enum Area: String, Sendable {
        /// Entries: what a key's work produced (here: an item's speech objects).
        case actionCache = "ac"
        /// Blobs, by the SHA-256 of their bytes.
        case contentAddressable = "cas"
    }

    func url(_ area: Area, _ digest: String) -> URL {
        settings.url.appendingPathComponent(area.rawValue).appendingPathComponent(digest)
    }

    /// The bytes at `area/digest`, or nil when the cache does not have them. `expectedBytes`, for a
    /// blob whose size is known, refuses an answer of any other size before reading past it.
    package func get(_ area: Area, _ digest: String, expectedBytes: Int? = nil) async throws(RemoteCacheError) -> Data?
    {
        let limit = area == .actionCache ? Self.entryLimit : Self.blobLimit
        let request = HTTPClient.Request(
            method: .get, url: url(area, digest), headers: header.map { [$0] } ?? [], maxBytes: limit,
            expectedBytes: expectedBytes)
        let response = try await send(request, area: area, digest: digest)
        switch response.status {
        case 200: return response.body
        case 404: return nil
        default: throw classify(status: response.status, method: "GET", area: area, digest: digest)
        }
    }

    /// Writes the blob `digest` (of `expectedBytes`) into the new file `file` as it arrives, so a
    /// large blob is never held whole; false when the cache does not have it. The file is created
    /// (refused if something is already at that path) and left to the caller, whatever happens.
    package func download(_ digest: String, expectedBytes: Int, to file: URL) async throws(RemoteCacheError) -> Bool {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .localStore(reason: "\(file.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var request = HTTPClient.Request(
            method: .get, url: url(.contentAddressable, digest), headers: header.map { [$0] } ?? [],
            maxBytes: Self.blobLimit, expectedBytes: expectedBytes)
        request.destination = descriptor
        let response = try await send(request, area: .contentAddressable, digest: digest)
        switch response.status {
        case 200: return true
        case 404: return false
        default: throw classify(status: response.status, method: "GET", area: .contentAddressable, digest: digest)
        }
    }

    /// Whether the cache holds `area/digest` (a `HEAD` request: nothing is downloaded).
    package func contains(_ area: Area, _ digest: String) async throws(RemoteCacheError) -> Bool {
        let request = HTTPClient.Request(
            method: .head, url: url(area, digest), headers: header.map { [$0] } ?? [], maxBytes: 0)
        let response = try await send(request, area: area, digest: digest)
        switch response.status {
        case 200..<300: return true
        case 404: return false
        default: throw classify(status: response.status, method: "HEAD", area: area, digest: digest)
        }
    }

    /// Stores `data` at `area/digest`.
    package func put(_ area: Area, _ digest: String, data: Data) async throws(RemoteCacheError) {
        let request = HTTPClient.Request(
            method: .put, url: url(area, digest),
            headers: (header.map { [$0] } ?? []) + ["Content-Type: application/octet-stream"],
            body: data, maxBytes: 0)
        let response = try await send(request, area: area, digest: digest)
        guard (200..<300).contains(response.status) else {
            throw classify(status: response.status, method: "PUT", area: area, digest: digest)
        }
    }

    private func send(_ request: HTTPClient.Request, area: Area, digest: String) async throws(RemoteCacheError)
        -> HTTPClient.Response
    {
        do {
            return try await client.send(request)
        } catch {
            let path = "/\(area.rawValue)/\(digest.prefix(12))…"
            switch error {
            case .tooLarge, .wrongLength:
                throw .badAnswer(cache: settings.name, path: path, reason: error.reason)
            default:
                throw .unavailable(cache: settings.name, reason: "\(request.method.rawValue) \(path): \(reason(error))")
            }
        }
    }

    /// A transport failure in words, naming the setting that bounds it.
    private func reason(_ failure: HTTPFailure) -> String {
        switch failure {
        case .connectTimedOut: "\(failure.reason) (cache.connectTimeoutSeconds)"
        case .tooSlow: "\(failure.reason) (cache.minimumBytesPerSecond, cache.timeoutSeconds)"
        case .deadlinePassed: "\(failure.reason) (cache.deadlineSeconds)"
        default: failure.reason
        }
    }

    private func classify(status: Int, method: String, area: Area, digest: String) -> RemoteCacheError {
        status >= 500
            ? .unavailable(
                cache: settings.name,
                reason: "\(method) /\(area.rawValue)/\(digest.prefix(12))… answered HTTP \(status)")
            : .refused(
                cache: settings.name, method: method, path: "/\(area.rawValue)/\(digest.prefix(12))…", status: status)
    }
}
