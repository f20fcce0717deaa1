/// A chapter of the book: a run of items under one title.
public struct Chapter: Sendable, Equatable {
    /// 1-based position in reading order across all sources.
    public var ordinal: Int
    public var title: String
    /// The source file the chapter starts in.
    public var sourcePath: String

    public init(ordinal: Int, title: String, sourcePath: String) {
        self.ordinal = ordinal
        self.title = title
        self.sourcePath = sourcePath
    }
}
