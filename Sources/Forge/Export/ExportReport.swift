/// What an export wrote.
public struct ExportReport: Sendable, Equatable {
    /// Files written, relative to the output directory.
    public var files: [String]
    public var chapters: Int
    public var durationMs: Int
}
