import Glibc
import Synchronization

/// What the searches of aligners working side by side (the stretches of one recording) pass
/// through: ordinary ones share it, but a large one — one that locates text, or one that may
/// skip words — runs alone. A large search holds tens of megabytes of pocketsphinx's history;
/// beside another search it set a long book's peak (docs/benchmarks.md). Large searches are a
/// small share of the work, so the cores stay busy with the ordinary ones.
///
/// A large search that is waiting goes before ordinary searches that come after it, so a
/// stream of ordinary searches on the other threads cannot hold it back.
final class SearchGate: @unchecked Sendable {
    // A pthread read-write lock, made to be locked and unlocked from any thread; this class
    // owns it, never moves it and never hands it out, so sharing the class is safe.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private let largeSearches = Atomic(0)

    /// How many large searches have passed through this gate.
    var largeSearchCount: Int { largeSearches.load(ordering: .relaxed) }

    init() {
        lock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// `search`'s result, found while no other search of this gate runs.
    func alone<Result, Failure: Error>(_ search: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        largeSearches.add(1, ordering: .relaxed)
        return try search()
    }

    /// `search`'s result, found beside other ordinary searches of this gate but no large one.
    /// Never call it from within a search of the same gate: a large search waiting in between
    /// would wait for the outer one, and the inner one for it.
    func beside<Result, Failure: Error>(_ search: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try search()
    }
}
