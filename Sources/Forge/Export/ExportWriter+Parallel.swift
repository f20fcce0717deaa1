import Synchronization

extension ExportWriter {
    /// Writes `count` files on up to `jobs` threads, each file through a writer of its own into
    /// this writer's folder (`write(index, &writer)`); what they wrote is counted here, in index
    /// order, and each finished file is told to the progress sink under `phase` (or to `meter`, which
    /// the files also tell of their audio as it goes out). A stop or the first failure ends it
    /// (rethrown); a stop counts every file written whole.
    mutating func writeInParallel(
        _ count: Int, jobs: Int, phase: String, meter: PhaseMeter? = nil,
        _ write: @escaping @Sendable (_ index: Int, _ writer: inout ExportWriter) throws -> Void
    ) throws {
        let (directory, folder, cancellation, progress) = (owned.root, self.folder, self.cancellation, self.progress)
        let outcome = Mutex<(written: [Int: [String]], done: Int)>(([:], 0))
        var failure: (any Error)?
        do {
            try BlockingThreads.forEachIndex(count, threads: jobs, cancellation: cancellation) { index in
                var writer = ExportWriter(outputDirectory: directory, folder: folder, cancellation: cancellation)
                try write(index, &writer)
                // A file's buffers, freed into this thread's arena, are handed back: a long book's
                // memory is then one file's, not what each arena ever held.
                MemoryTrim.release()
                let done = outcome.withLock { outcome in
                    outcome.written[index] = writer.written
                    outcome.done += 1
                    return outcome.done
                }
                if let meter {
                    meter.finish(index)
                } else {
                    progress?(ExportProgress(phase: phase, done: done, total: count))
                }
            }
        } catch {
            failure = error
        }
        let written = outcome.withLock { $0.written }
        adopt(written.keys.sorted().flatMap { written[$0]! })
        if let failure {
            if case ExportError.cancelled = failure { throw ExportError.cancelled(written: self.written.count) }
            throw failure
        }
        try checkCancelled()
    }
}
