/// Why an HTTP transfer gave no usable answer. The server's status, when it gave one, is not a
/// failure: ``HTTPClient`` returns it.
package enum HTTPFailure: Error, Sendable, Equatable {
    /// No connection within the connect timeout.
    case connectTimedOut(seconds: Int)
    /// Slower than the minimum speed for the low-speed window (a stalled or trickling server).
    case tooSlow(bytesPerSecond: Int, seconds: Int)
    /// No whole answer within the deadline.
    case deadlinePassed(seconds: Int)
    /// The answer is larger than the request allows (announced or received).
    case tooLarge(limit: Int)
    /// The answer does not have the size the request knows it must have (`announced`: its
    /// Content-Length, or the bytes that came before the server closed).
    case wrongLength(expected: Int, found: Int)
    /// The server pointed elsewhere; redirects are not followed (a cache is asked by its own URL).
    case redirected(status: Int)
    /// The connection failed another way (refused, reset, unknown host, cut short, TLS).
    case transport(String)
    /// The task waiting for the answer was cancelled.
    case cancelled

    /// The failure in words, naming the setting that bounds it where there is one.
    package var reason: String {
        switch self {
        case .connectTimedOut(let seconds): "no connection within \(seconds) s"
        case .tooSlow(let speed, let seconds): "slower than \(speed) bytes/s for \(seconds) s"
        case .deadlinePassed(let seconds): "no whole answer within \(seconds) s"
        case .tooLarge(let limit): "an answer larger than \(limit) bytes was refused"
        case .wrongLength(let expected, let found): "an answer of \(found) bytes where \(expected) were expected"
        case .redirected(let status): "HTTP \(status) redirect (not followed)"
        case .transport(let text): text
        case .cancelled: "cancelled"
        }
    }
}
