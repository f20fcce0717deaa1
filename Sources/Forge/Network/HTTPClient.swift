import CCurl
import Foundation
import Synchronization

/// HTTP `GET`, `HEAD`, `PUT` and `POST` on libcurl with every transfer bounded in time and size (``HTTPLimits``):
/// the one file that imports libcurl.
///
/// Not FoundationNetworking's `URLSession`, though it is libcurl underneath: it buffers a whole
/// answer in memory before handing it over, its only time bound is an
/// idle timeout that a byte every few seconds resets, and it follows redirects. Not
/// AsyncHTTPClient: it would add minutes to every clean build for what curl's options give here.
/// Each request blocks one of ``BlockingThreads`` in `curl_easy_perform`; idle handles are kept,
/// so their connections are reused.
package final class HTTPClient: Sendable {
    package let limits: HTTPLimits
    private let idle = Mutex<[CurlHandle]>([])

    /// The most bytes kept of an answer that is not a success (a 404's page, a service's error
    /// message); the rest is dropped.
    package static let errorBodyLimit = 64 << 10
    private static let keptHandles = 16

    package init(limits: HTTPLimits) {
        _ = Self.globalInit
        self.limits = limits
    }

    package enum Method: String, Sendable {
        case get = "GET"
        case put = "PUT"
        case head = "HEAD"
        case post = "POST"
    }

    /// One request and what its answer may be.
    package struct Request: Sendable {
        package var method: Method
        package var url: URL
        /// Whole header lines, `Name: value`.
        package var headers: [String] = []
        /// What a `PUT` or `POST` sends.
        package var body: Data?
        /// The most bytes a successful answer may have; a larger one is stopped at this size.
        package var maxBytes: Int
        /// The exact size a successful answer must have, when the caller knows it (a blob by its
        /// digest): a different Content-Length is refused before its body is read.
        package var expectedBytes: Int?
        /// An open file a successful answer's body is written to as it arrives, instead of being
        /// held in ``Response/body`` (which stays empty): a large blob never sits whole in memory.
        package var destination: Int32?

        package init(
            method: Method, url: URL, headers: [String] = [], body: Data? = nil, maxBytes: Int,
            expectedBytes: Int? = nil
        ) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.maxBytes = maxBytes
            self.expectedBytes = expectedBytes
        }
    }

    /// The server's answer: its status, its headers, and its body (of an answer that is not a
    /// success, at most ``errorBodyLimit`` bytes of it).
    package struct Response: Sendable {
        package var status: Int
        package var body: Data
        /// Header values by lowercased name (the last of a repeated header).
        package var headers: [String: String] = [:]
    }

    /// Sends `request` and waits for its answer without holding a thread of the cooperative pool;
    /// cancelling the task abandons the transfer within a second.
    package func send(_ request: Request) async throws(HTTPFailure) -> Response {
        let stop = StopFlag()
        let result: Result<Response, HTTPFailure> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                BlockingThreads.start(
                    1,
                    body: { [self] _ in
                        continuation.resume(
                            returning: Result { () throws(HTTPFailure) in try perform(request, stop: stop) })
                    })
            }
        } onCancel: {
            stop.raise()
        }
        return try result.get()
    }

    /// Every option of a transfer but its method: the URL (HTTP or HTTPS only, redirects not
    /// followed), the headers, the limits in time and speed, and the callbacks into `transfer`.
    private func configure(
        _ raw: UnsafeMutableRawPointer, for request: Request, headers: UnsafeMutablePointer<curl_slist>?,
        transfer: Transfer
    ) {
        _ = forge_curl_setopt_pointer(raw, CURLOPT_URL, request.url.absoluteString)
        _ = forge_curl_setopt_pointer(raw, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = forge_curl_setopt_long(raw, CURLOPT_FOLLOWLOCATION, 0)
        _ = forge_curl_setopt_long(raw, CURLOPT_NOSIGNAL, 1)
        _ = forge_curl_setopt_pointer(raw, CURLOPT_HTTPHEADER, headers)
        _ = forge_curl_setopt_long(raw, CURLOPT_CONNECTTIMEOUT_MS, limits.connectTimeoutSeconds * 1000)
        _ = forge_curl_setopt_long(raw, CURLOPT_LOW_SPEED_LIMIT, limits.minimumBytesPerSecond)
        _ = forge_curl_setopt_long(raw, CURLOPT_LOW_SPEED_TIME, limits.lowSpeedSeconds)
        _ = forge_curl_setopt_long(raw, CURLOPT_TIMEOUT_MS, limits.deadlineSeconds * 1000)
        _ = forge_curl_setopt_pointer(raw, CURLOPT_ERRORBUFFER, transfer.errorText)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        _ = forge_curl_setopt_write_function(raw, Self.receive)
        _ = forge_curl_setopt_pointer(raw, CURLOPT_WRITEDATA, context)
        _ = forge_curl_setopt_header_function(raw, Self.receiveHeader)
        _ = forge_curl_setopt_pointer(raw, CURLOPT_HEADERDATA, context)
        _ = forge_curl_setopt_progress_function(raw, Self.progress)
        _ = forge_curl_setopt_pointer(raw, CURLOPT_XFERINFODATA, context)
        _ = forge_curl_setopt_long(raw, CURLOPT_NOPROGRESS, 0)
    }

    /// The failure a finished transfer's `code` stands for; nil for success (or a body discarded
    /// on purpose).
    private func failure(of code: CURLcode, transfer: Transfer) -> HTTPFailure? {
        switch code {
        case CURLE_OK:
            return nil
        case CURLE_WRITE_ERROR where transfer.discarding:
            return nil
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        case CURLE_OPERATION_TIMEDOUT:
            let text = transfer.errorMessage
            if text.contains("too slow") {
                return .tooSlow(bytesPerSecond: limits.minimumBytesPerSecond, seconds: limits.lowSpeedSeconds)
            }
            if text.hasPrefix("Connection timed out") || text.hasPrefix("Resolving timed out") {
                return .connectTimedOut(seconds: limits.connectTimeoutSeconds)
            }
            return .deadlinePassed(seconds: limits.deadlineSeconds)
        case CURLE_COULDNT_CONNECT:
            return .transport("connection refused")
        case CURLE_COULDNT_RESOLVE_HOST:
            return .transport("unknown host")
        case CURLE_PARTIAL_FILE:
            return .transport("the answer was cut short")
        default:
            let text = transfer.errorMessage
            return .transport(text.isEmpty ? String(cString: curl_easy_strerror(code)) : text)
        }
    }

    private func perform(_ request: Request, stop: StopFlag) throws(HTTPFailure) -> Response {
        if stop.isRaised { throw .cancelled }
        let handle = idle.withLock { $0.popLast() } ?? CurlHandle()
        guard let raw = handle.raw else { throw .transport("libcurl could not start a transfer") }
        defer {
            curl_easy_reset(raw)
            idle.withLock { if $0.count < Self.keptHandles { $0.append(handle) } }
        }
        let transfer = Transfer(handle: raw, request: request, stop: stop)
        var headers: UnsafeMutablePointer<curl_slist>?
        // "Expect:" turns off curl's wait for a 100-continue before large bodies.
        for line in request.headers + ["Expect:"] { headers = curl_slist_append(headers, line) }
        defer { curl_slist_free_all(headers) }

        configure(raw, for: request, headers: headers, transfer: transfer)

        let code: CURLcode = withExtendedLifetime(transfer) {
            switch request.method {
            case .get:
                _ = forge_curl_setopt_long(raw, CURLOPT_HTTPGET, 1)
                return curl_easy_perform(raw)
            case .head:
                _ = forge_curl_setopt_long(raw, CURLOPT_NOBODY, 1)
                return curl_easy_perform(raw)
            case .put, .post:
                let body = request.body ?? Data()
                return body.withUnsafeBytes { bytes in
                    _ = forge_curl_setopt_pointer(raw, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
                    _ = forge_curl_setopt_offset(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                    _ = forge_curl_setopt_pointer(
                        raw, CURLOPT_POSTFIELDS, bytes.baseAddress ?? UnsafeRawPointer(transfer.errorText))
                    return curl_easy_perform(raw)
                }
            }
        }
        if let failure = transfer.failure { throw failure }
        if let failure = failure(of: code, transfer: transfer) { throw failure }
        let status = transfer.status()
        if (300..<400).contains(status) { throw .redirected(status: status) }
        if (200..<300).contains(status), request.method == .get, let expected = request.expectedBytes,
            transfer.received != expected
        {
            throw .wrongLength(expected: expected, found: transfer.received)
        }
        return Response(status: status, body: transfer.body, headers: transfer.headers)
    }

    private static let receive: curl_write_callback = { data, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        return transfer.take(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
    }

    private static let receiveHeader: curl_write_callback = { data, size, count, context in
        guard let context, let data else { return 0 }
        let length = size * count
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        transfer.takeHeader(UnsafeRawBufferPointer(start: data, count: length))
        return length
    }

    private static let progress: curl_xferinfo_callback = { context, _, _, _, _ in
        guard let context else { return 1 }
        // curl calls this at least once a second, even while nothing arrives: a stop is seen within one.
        return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().stop.isRaised ? 1 : 0
    }

    private static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Raised by the waiting task's cancellation, read by the transfer's thread.
    private final class StopFlag: Sendable {
        private let raised = Atomic<Bool>(false)
        var isRaised: Bool { raised.load(ordering: .acquiring) }
        func raise() { raised.store(true, ordering: .releasing) }
    }

    /// A libcurl easy handle. `@unchecked Sendable`: a handle is used by one transfer at a time,
    /// taken from and returned to the client's idle list under its lock.
    private final class CurlHandle: @unchecked Sendable {
        let raw: UnsafeMutableRawPointer? = curl_easy_init()
        deinit { if let raw { curl_easy_cleanup(raw) } }
    }

    /// One transfer's state, used only by the thread that performs it (curl calls back on it).
    private final class Transfer {
        let handle: UnsafeMutableRawPointer
        let request: HTTPClient.Request
        let stop: StopFlag
        let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        var body = Data()
        var headers: [String: String] = [:]
        var received = 0
        var failure: HTTPFailure?
        /// The answer is not a success: its body is counted and dropped, and cut off past ``errorBodyLimit``.
        var discarding = false
        private var limit: Int?

        init(handle: UnsafeMutableRawPointer, request: HTTPClient.Request, stop: StopFlag) {
            self.handle = handle
            self.request = request
            self.stop = stop
            errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        }

        deinit { errorText.deallocate() }

        var errorMessage: String { String(cString: errorText).trimmingCharacters(in: .whitespacesAndNewlines) }

        func status() -> Int {
            var code = 0
            _ = forge_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
            return code
        }

        /// Takes one header line; a status line (another answer, such as a 100 Continue) starts afresh.
        func takeHeader(_ bytes: UnsafeRawBufferPointer) {
            guard headers.count < 100, bytes.count < 8192 else { return }
            let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("HTTP/") {
                headers = [:]
                return
            }
            guard let colon = line.firstIndex(of: ":") else { return }
            let name = line[..<colon].lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }

        /// Takes a piece of the body; false stops the transfer.
        func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
            if limit == nil { limit = firstLimit() }
            guard let limit else { return false }
            received += bytes.count
            guard received <= limit else {
                if discarding { return false }
                failure =
                    request.expectedBytes.map { .wrongLength(expected: $0, found: received) }
                    ?? .tooLarge(limit: request.maxBytes)
                return false
            }
            if !discarding, let destination = request.destination {
                guard Self.write(bytes, to: destination) else {
                    failure = .transport("writing the answer to disk failed: \(String(cString: strerror(errno)))")
                    return false
                }
            } else if !discarding {
                body.append(bytes.bindMemory(to: UInt8.self))
            } else if body.count < HTTPClient.errorBodyLimit {
                body.append(contentsOf: bytes.prefix(HTTPClient.errorBodyLimit - body.count))
            }
            return true
        }

        /// Writes all of `bytes` to `descriptor`, going on after a partial write; false on an error.
        private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }

        /// What the answer may bring, decided once its status and headers are in; nil refuses it.
        private func firstLimit() -> Int? {
            let status = status()
            guard (200..<300).contains(status), request.method == .get || request.method == .post else {
                discarding = true
                return HTTPClient.errorBodyLimit
            }
            var announced: curl_off_t = -1
            _ = forge_curl_getinfo_offset(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced)
            if let expected = request.expectedBytes {
                if announced >= 0 && Int(announced) != expected {
                    failure = .wrongLength(expected: expected, found: Int(announced))
                    return nil
                }
                if request.destination == nil { body.reserveCapacity(expected) }
                return expected
            }
            if announced > request.maxBytes {
                failure = .tooLarge(limit: request.maxBytes)
                return nil
            }
            if announced > 0, request.destination == nil { body.reserveCapacity(Int(announced)) }
            return request.maxBytes
        }
    }
}
