import Glibc
import Synchronization

/// What the searches of aligners working side by side (the stretches of one recording) pass
/// through: ordinary ones share it, but a large one — one that locates text, or one that may
/// skip words — runs alone while the process is large. A large search holds tens of megabytes of
/// pocketsphinx's history; beside another search it set a long book's peak (docs/benchmarks.md).
/// A large search that starts while the process's resident memory is under ``sharedBelowBytes``
/// (a shorter book's) lets ordinary ones run beside it, so the other core is not left idle; two
/// large searches never run at once.
///
/// A large search that is waiting goes before ordinary searches that come after it, so a
/// stream of ordinary searches on the other threads cannot hold it back.
final class SearchGate: @unchecked Sendable {
    /// The resident memory under which a narration's large searches run beside ordinary ones:
    /// small enough that the largest search of a long book and an ordinary one beside it stay
    /// within the alignment's memory bound.
    static let smallProcessBytes = 128 << 20

    /// The resident memory under which a large search runs beside ordinary ones (zero: never).
    let sharedBelowBytes: Int
    // A pthread mutex and condition variable, locked and waited on from any thread; this class
    // owns them, never moves them and never hands them out, so sharing the class is safe. The
    // counts below are read and written only with the mutex held.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var ordinaryRunning = 0
    private var largeRunning = false
    /// Whether the large search running started small enough to have ordinary ones beside it.
    private var largeShared = false
    private var largeWaiting = 0
    private let largeSearches = Atomic(0)
    private let sharedLargeSearches = Atomic(0)

    /// How many large searches have passed through this gate.
    var largeSearchCount: Int { largeSearches.load(ordering: .relaxed) }
    /// How many of those let ordinary searches run beside them.
    var sharedLargeSearchCount: Int { sharedLargeSearches.load(ordering: .relaxed) }

    /// A gate whose large searches run beside ordinary ones while the process's resident memory
    /// is under `sharedBelowBytes` (by default never).
    init(sharedBelowBytes: Int = 0) {
        self.sharedBelowBytes = sharedBelowBytes
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// `search`'s result, found while no other large search of this gate runs, and no ordinary
    /// one either unless the process is small as it starts.
    func alone<Result, Failure: Error>(_ search: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        largeWaiting += 1
        while largeRunning || (ordinaryRunning > 0 && !roomy) { pthread_cond_wait(condition, mutex) }
        largeWaiting -= 1
        largeRunning = true
        // Its memory is yet to come: whether others may run beside it is decided by the
        // process's size as it starts, not as it grows.
        largeShared = ordinaryRunning > 0 || roomy
        if largeShared { sharedLargeSearches.add(1, ordering: .relaxed) }
        pthread_mutex_unlock(mutex)
        largeSearches.add(1, ordering: .relaxed)
        defer { leave { $0.largeRunning = false } }
        return try search()
    }

    /// `search`'s result, found beside other ordinary searches of this gate, and beside a large
    /// one only if the process was small when that one started. Never call it from within a
    /// search of the same gate: a large search waiting in between would wait for the outer one,
    /// and the inner one for it.
    func beside<Result, Failure: Error>(_ search: () throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        while largeRunning ? !largeShared : largeWaiting > 0 && !roomy { pthread_cond_wait(condition, mutex) }
        ordinaryRunning += 1
        pthread_mutex_unlock(mutex)
        defer { leave { $0.ordinaryRunning -= 1 } }
        return try search()
    }

    /// Whether the process is small enough for a large search and ordinary ones side by side.
    private var roomy: Bool {
        sharedBelowBytes > 0 && Self.residentBytes() < sharedBelowBytes
    }

    private func leave(_ change: (SearchGate) -> Void) {
        pthread_mutex_lock(mutex)
        change(self)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// This process's resident memory, or `Int.max` where it cannot be read.
    static func residentBytes() -> Int { ProcessPages.residentBytes ?? .max }
}
