import Synchronization

/// Set when the user asks a command to stop (Ctrl-C, SIGTERM). A phase that keeps its work
/// checks it between units (items, chunks, files), winds down, saves what is finished and
/// returns; the command then exits 130.
///
/// Until a command has begun work worth keeping (``beginKeepingWork()``: it took its output
/// directory's lock and starts writing) there is nothing to wind down, and the command-line
/// front ends the process at once instead: reading and splitting a large source never delays a stop.
package final class CancellationFlag: Sendable {
    private let state = Atomic<Bool>(false)
    private let keepsWork = Atomic<Bool>(false)

    package init() {}

    package var isCancelled: Bool { state.load(ordering: .acquiring) }

    package func cancel() { state.store(true, ordering: .releasing) }

    /// Whether the command has begun work that a stop winds down rather than drops.
    package var hasWorkToKeep: Bool { keepsWork.load(ordering: .acquiring) }

    /// Marks the start of work that a stop must wind down and save, not drop.
    package func beginKeepingWork() { keepsWork.store(true, ordering: .releasing) }
}
