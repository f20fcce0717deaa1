/// How far an export has got: in `phase` (the folder it writes: `audio`, `captions`, `epub`,
/// `m4b`, `acx`), `done` of `total` chapters.
package struct ExportProgress: Sendable, Equatable {
    package var phase: String
    package var done: Int
    package var total: Int

    package init(phase: String, done: Int, total: Int) {
        self.phase = phase
        self.done = done
        self.total = total
    }

    /// Where an export reports its progress; called on whatever thread does the work.
    package typealias Sink = @Sendable (ExportProgress) -> Void
}
