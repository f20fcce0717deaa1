/// How long and how large one HTTP transfer may be: what keeps a slow, stalled or hostile server
/// from holding a build or its memory. Each bound is curl's own (`--connect-timeout`,
/// `--speed-limit`/`--speed-time`, `--max-time`, `--max-filesize`), enforced by libcurl.
package struct HTTPLimits: Sendable, Equatable {
    /// How long connecting (name lookup, TCP, TLS) may take.
    package var connectTimeoutSeconds: Int
    /// A transfer slower than ``minimumBytesPerSecond`` for this long is abandoned: a server that
    /// stops answering, or answers a byte at a time (slowloris), holds a request no longer than this.
    package var lowSpeedSeconds: Int
    /// The speed under which a transfer counts as stalled.
    package var minimumBytesPerSecond: Int
    /// The most one request may take from start to end, however it trickles.
    package var deadlineSeconds: Int

    package init(
        connectTimeoutSeconds: Int = 5, lowSpeedSeconds: Int = 10, minimumBytesPerSecond: Int = 1024,
        deadlineSeconds: Int = 120
    ) {
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.lowSpeedSeconds = lowSpeedSeconds
        self.minimumBytesPerSecond = minimumBytesPerSecond
        self.deadlineSeconds = deadlineSeconds
    }
}
