import Synchronization

/// Counts an export phase's work by the audio its chapters have put out, and tells the progress
/// sink at every percent of it (or every ``interval``) as well as at every chapter's end: a phase of
/// one long chapter (a three-hour chapter mastered for ACX) shows progress inside it, not only
/// when it ends. Called from the threads that write the chapters.
final class PhaseMeter: Sendable {
    private struct State {
        var finished = 0
        /// Milliseconds of each chapter's audio out so far (at most its length).
        var counted: [Double]
        var lastPercent = -1
        var lastReport = ContinuousClock.now
    }

    /// At most this long between reports while audio goes out.
    static let interval = Duration.seconds(2)

    let phase: String
    /// Each chapter's (or file's) length in milliseconds.
    let lengths: [Int]
    let totalMs: Int
    private let sink: ExportProgress.Sink?
    private let state: Mutex<State>

    init(phase: String, lengths: [Int], sink: ExportProgress.Sink?) {
        self.phase = phase
        self.lengths = lengths
        self.totalMs = lengths.reduce(0, +)
        self.sink = sink
        state = Mutex(State(counted: Array(repeating: 0, count: lengths.count)))
    }

    /// `samples` of chapter `index`'s audio, at `rate`, went out.
    func advance(_ index: Int, samples: Int, rate: Int) {
        guard let sink, rate > 0 else { return }
        // Told under the lock, so reports from the chapters' threads arrive in order.
        state.withLock { state in
            state.counted[index] = min(
                Double(lengths[index]), state.counted[index] + Double(samples) * 1000 / Double(rate))
            let done = state.counted.reduce(0, +)
            let percent = totalMs > 0 ? Int(done * 100 / Double(totalMs)) : 100
            let now = ContinuousClock.now
            guard percent > state.lastPercent || now - state.lastReport >= Self.interval else { return }
            state.lastPercent = percent
            state.lastReport = now
            sink(
                ExportProgress(
                    phase: phase, done: state.finished, total: lengths.count, finishedMs: Int(done), toFinishMs: totalMs
                ))
        }
    }

    /// Chapter `index` is being read (a pass of its mastering, which puts nothing out yet): at most
    /// every ``interval``, the progress so far is told again, so a long pass is seen to go on.
    func touch() {
        guard let sink else { return }
        state.withLock { state in
            let now = ContinuousClock.now
            guard now - state.lastReport >= Self.interval else { return }
            state.lastReport = now
            sink(
                ExportProgress(
                    phase: phase, done: state.finished, total: lengths.count,
                    finishedMs: Int(state.counted.reduce(0, +)), toFinishMs: totalMs))
        }
    }

    /// Chapter `index` is written whole.
    func finish(_ index: Int) {
        state.withLock { state in
            state.finished += 1
            state.counted[index] = Double(lengths[index])
            state.lastReport = ContinuousClock.now
            sink?(
                ExportProgress(
                    phase: phase, done: state.finished, total: lengths.count,
                    finishedMs: Int(state.counted.reduce(0, +)), toFinishMs: totalMs))
        }
    }
}
