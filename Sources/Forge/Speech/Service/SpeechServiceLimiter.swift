/// Holds a speech service's requests to its limits: requests and characters per minute over a
/// sliding minute, and a pause for everyone when the service says to wait (`Retry-After`). The
/// number of requests in flight is bounded by the caller's task limit.
package actor SpeechServiceLimiter {
    private let requestsPerMinute: Int?
    private let charactersPerMinute: Int?
    private var sent: [(at: ContinuousClock.Instant, characters: Int)] = []
    private var pausedUntil: ContinuousClock.Instant?

    package init(requestsPerMinute: Int?, charactersPerMinute: Int?) {
        self.requestsPerMinute = requestsPerMinute
        self.charactersPerMinute = charactersPerMinute
    }

    /// Waits until a request of `characters` may go, and counts it as sent. Throws when the task is
    /// cancelled while it waits.
    package func admit(characters: Int) async throws {
        while true {
            let now = ContinuousClock.now
            sent.removeAll { now - $0.at >= .seconds(60) }
            var wait = Duration.zero
            if let pausedUntil, pausedUntil > now { wait = pausedUntil - now }
            if let limit = requestsPerMinute, sent.count >= limit, let oldest = sent.first {
                wait = max(wait, oldest.at + .seconds(60) - now)
            }
            if let limit = charactersPerMinute {
                // A request larger than the whole allowance goes alone, once the minute is clear.
                var total = sent.reduce(0) { $0 + $1.characters } + characters
                for entry in sent where total > limit {
                    total -= entry.characters
                    wait = max(wait, entry.at + .seconds(60) - now)
                }
            }
            if wait <= .zero {
                sent.append((now, characters))
                return
            }
            try await Task.sleep(for: min(wait, .seconds(1)))
        }
    }

    /// Holds every request back until `delay` has passed (the service asked for it).
    package func pause(for delay: Duration) {
        let until = ContinuousClock.now + delay
        if pausedUntil.map({ $0 < until }) ?? true { pausedUntil = until }
    }
}
