/// What an export wrote.
public struct ExportReport: Sendable, Equatable {
    /// Files written, relative to the output directory.
    public var files: [String]
    public var chapters: Int
    public var durationMs: Int

    public init(files: [String], chapters: Int, durationMs: Int) {
        self.files = files
        self.chapters = chapters
        self.durationMs = durationMs
    }
}
