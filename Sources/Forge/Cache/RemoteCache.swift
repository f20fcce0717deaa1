import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client of the Bazel HTTP remote-cache protocol: `GET`/`PUT` of `{base}/cas/{sha256}` (blobs,
/// addressed by the SHA-256 of their bytes) and `{base}/ac/{sha256}` (entries, addressed by a key).
///
/// Built on FoundationNetworking's `URLSession` (libcurl underneath): its idle timeout and task
/// cancellation were checked against a server that accepts and never answers. Every failure is classified: a missing entry is a miss; no answer,
/// a timeout or 5xx is ``RemoteCacheError/unavailable(cache:reason:)``; other 4xx are refusals.
package final class RemoteCache: Sendable {
    package let settings: RemoteCacheSettings
    private let session: URLSession
    private let header: (name: String, value: String)?

    package init(settings: RemoteCacheSettings, environment: [String: String] = ProcessInfo.processInfo.environment) throws(RemoteCacheError) {
        self.settings = settings
        header = try RemoteCacheSettings.header(from: environment)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = TimeInterval(settings.timeoutSeconds)
        // A whole transfer may take longer than one silence; a blob is one item's audio.
        configuration.timeoutIntervalForResource = TimeInterval(settings.timeoutSeconds * 30)
        configuration.httpMaximumConnectionsPerHost = RemoteCache.connections
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Requests in flight at once: downloads of missing items, and uploads beside synthesis.
    package static let connections = 8

    package enum Area: String, Sendable {
        /// Entries: what a key's work produced (here: an item's speech objects).
        case actionCache = "ac"
        /// Blobs, by the SHA-256 of their bytes.
        case contentAddressable = "cas"
    }

    func url(_ area: Area, _ digest: String) -> URL {
        settings.url.appendingPathComponent(area.rawValue).appendingPathComponent(digest)
    }

    /// The bytes at `area/digest`, or nil when the cache does not have them.
    package func get(_ area: Area, _ digest: String) async throws(RemoteCacheError) -> Data? {
        let (data, status) = try await send(request(area, digest, method: "GET"), body: nil)
        switch status {
        case 200: return data
        case 404: return nil
        default: throw classify(status: status, method: "GET", area: area, digest: digest)
        }
    }

    /// Stores `data` at `area/digest`.
    package func put(_ area: Area, _ digest: String, data: Data) async throws(RemoteCacheError) {
        var request = request(area, digest, method: "PUT")
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let (_, status) = try await send(request, body: data)
        guard (200..<300).contains(status) else { throw classify(status: status, method: "PUT", area: area, digest: digest) }
    }

    private func request(_ area: Area, _ digest: String, method: String) -> URLRequest {
        var request = URLRequest(url: url(area, digest))
        request.httpMethod = method
        if let header { request.setValue(header.value, forHTTPHeaderField: header.name) }
        return request
    }

    private func send(_ request: URLRequest, body: Data?) async throws(RemoteCacheError) -> (Data, Int) {
        do {
            let (data, response) = try await perform(request, body: body)
            guard let http = response as? HTTPURLResponse else { throw RemoteCacheError.unavailable(cache: settings.name, reason: "not an HTTP answer") }
            return (data, http.statusCode)
        } catch let error as RemoteCacheError {
            throw error
        } catch {
            throw .unavailable(cache: settings.name, reason: Self.reason(error, timeout: settings.timeoutSeconds))
        }
    }

    /// One request, cancelled with the task that awaits it.
    ///
    /// Not `URLSession.data(for:)`: on this toolchain its cancellation handler calls
    /// `URLSessionTask.cancel()` synchronously while the runtime holds the task's status lock, and
    /// a request finishing at that moment deadlocks both (seen: a refused connection cancelling its
    /// siblings hung the build). Here the cancel is sent from another queue.
    private func perform(_ request: URLRequest, body: Data?) async throws -> (Data, URLResponse) {
        let handle = TaskHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                    if let response, error == nil {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }
                let task = body.map { session.uploadTask(with: request, from: $0, completionHandler: completion) }
                    ?? session.dataTask(with: request, completionHandler: completion)
                handle.start(task)
            }
        } onCancel: {
            DispatchQueue.global().async { handle.cancel() }
        }
    }

    /// A request's task, cancelled even when the cancel comes before it started.
    private final class TaskHandle: Sendable {
        private let state = Mutex<(task: URLSessionTask?, cancelled: Bool)>((nil, false))

        func start(_ task: URLSessionTask) {
            let cancelled = state.withLock { state in
                state.task = task
                return state.cancelled
            }
            task.resume()
            if cancelled { task.cancel() }
        }

        func cancel() {
            let task = state.withLock { state in
                state.cancelled = true
                return state.task
            }
            task?.cancel()
        }
    }

    private func classify(status: Int, method: String, area: Area, digest: String) -> RemoteCacheError {
        status >= 500
            ? .unavailable(cache: settings.name, reason: "\(method) /\(area.rawValue)/\(digest.prefix(12))… answered HTTP \(status)")
            : .refused(cache: settings.name, method: method, path: "/\(area.rawValue)/\(digest.prefix(12))…", status: status)
    }

    /// A transport failure in words (libcurl's, through Foundation).
    static func reason(_ error: any Error, timeout: Int) -> String {
        let error = error as NSError
        switch error.code {
        case NSURLErrorTimedOut: return "no answer within \(timeout) s (cache.timeoutSeconds)"
        case NSURLErrorCancelled: return "cancelled"
        case NSURLErrorCannotConnectToHost: return "connection refused"
        case NSURLErrorCannotFindHost: return "unknown host"
        default:
            let text = (error.userInfo[NSLocalizedDescriptionKey] as? String) ?? error.localizedDescription
            return text.isEmpty || text == "(null)" ? "network error \(error.code)" : text
        }
    }
}
