/// How far an export has got: in `phase` (the folder it writes: `audio`, `captions`, `epub`,
/// `m4b`, `acx`, or `encode`), `done` of `total` chapters; in the phases that put audio out, also
/// `finishedMs` of its `toFinishMs` milliseconds (chapters under way counted for what they have put
/// out), reported inside a long chapter too.
package struct ExportProgress: Sendable, Equatable {
    package var phase: String
    package var done: Int
    package var total: Int
    package var finishedMs: Int
    /// 0 when the phase is counted in chapters only.
    package var toFinishMs: Int

    package init(phase: String, done: Int, total: Int, finishedMs: Int = 0, toFinishMs: Int = 0) {
        self.phase = phase
        self.done = done
        self.total = total
        self.finishedMs = finishedMs
        self.toFinishMs = toFinishMs
    }

    /// How much of the phase is done, 0…1: by its audio where it is counted so, else by chapters.
    package var fraction: Double {
        if toFinishMs > 0 { return min(1, Double(finishedMs) / Double(toFinishMs)) }
        return total > 0 ? Double(done) / Double(total) : 1
    }

    /// Where an export reports its progress; called on whatever thread does the work.
    package typealias Sink = @Sendable (ExportProgress) -> Void
}
