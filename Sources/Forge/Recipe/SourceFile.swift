import Foundation

/// One source document named by a recipe.
public struct SourceFile: Sendable, Equatable {
    /// The kinds of document the splitter reads.
    public enum Format: String, Sendable, CaseIterable {
        case text
        case markdown
    }

    public var url: URL
    public var format: Format

    public init(url: URL, format: Format) {
        self.url = url
        self.format = format
    }

    /// The format implied by a file name's extension: `.md`/`.markdown` is Markdown, anything else plain text.
    public static func inferredFormat(for url: URL) -> Format {
        switch url.pathExtension.lowercased() {
        case "md", "markdown": return .markdown
        default: return .text
        }
    }
}
