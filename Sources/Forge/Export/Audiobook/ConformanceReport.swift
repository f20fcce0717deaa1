/// What `forge check` found: each chapter's levels against a loudness profile, and the book's.
package struct ConformanceReport: Sendable, Equatable {
    package struct Chapter: Sendable, Equatable {
        package var ordinal: Int
        package var title: String
        /// The name its exported file has, e.g. "chapter-001".
        package var fileStem: String
        package var levels: AudioLevels
        /// What breaks the profile, in words; empty when the chapter conforms.
        package var violations: [String]
        package var passed: Bool { violations.isEmpty }
    }

    package var profile: LoudnessProfile
    package var chapters: [Chapter]
    /// The whole book measured as one stretch (chapters one after another).
    package var book: AudioLevels
    package var elapsedSeconds: Double
    /// Chapters measured now (the others' levels were in the manifest, their audio unchanged).
    package var measuredChapters: Int

    package var passed: Bool { chapters.allSatisfy(\.passed) }
    package var failedChapters: [Chapter] { chapters.filter { !$0.passed } }
}
