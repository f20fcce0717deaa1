/// What `forge check` found: each chapter's levels against a loudness profile, and the book's.
public struct ConformanceReport: Sendable, Equatable {
    public struct Chapter: Sendable, Equatable {
        public var ordinal: Int
        public var title: String
        /// The name its exported file has, e.g. "chapter-001".
        public var fileStem: String
        public var levels: AudioLevels
        /// What breaks the profile, in words; empty when the chapter conforms.
        public var violations: [String]
        public var passed: Bool { violations.isEmpty }
    }

    public var profile: LoudnessProfile
    public var chapters: [Chapter]
    /// The whole book measured as one stretch (chapters one after another).
    public var book: AudioLevels
    public var elapsedSeconds: Double
    /// Chapters measured now (the others' levels were in the manifest, their audio unchanged).
    public var measuredChapters: Int

    public var passed: Bool { chapters.allSatisfy(\.passed) }
    public var failedChapters: [Chapter] { chapters.filter { !$0.passed } }
}
