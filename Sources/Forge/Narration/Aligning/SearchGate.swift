import Synchronization

/// Lets one large search through at a time — one that locates text, or one that may skip words —
/// among the stretches of a recording examined side by side: each holds tens of megabytes of
/// pocketsphinx's history while it runs, and two at once were a long book's peak
/// (docs/benchmarks.md). The searches are a small share of the work; the windows around them
/// still run at once.
final class SearchGate: Sendable {
    private let lock = Mutex(())

    /// `search`'s placements, found while no other search of this gate runs.
    func pass(_ search: () throws -> [WordPlacement?]) throws -> [WordPlacement?] {
        try lock.withLock { _ in try search() }
    }
}
