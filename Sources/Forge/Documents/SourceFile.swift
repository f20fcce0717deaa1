import Foundation

/// One source document named by a recipe.
package struct SourceFile: Sendable, Equatable {
    /// The keys of a recipe source object (read by `SourceFile.read(recipe:…)`); others are refused.
    package enum RecipeKey: String, CaseIterable, Sendable { case path, format, include, exclude }

    /// The kinds of document the splitter reads.
    package enum Format: String, Sendable, CaseIterable {
        case text
        case markdown
        /// HTML, read leniently like a browser.
        case html
        /// XHTML, which must be well formed.
        case xhtml
        /// An EPUB 2 or 3 book.
        case epub
        /// A script: `NAME: line` lines become the character's dialogue, `(stage directions)` are skipped.
        case script
    }

    /// The recipe path that means standard input.
    package static let standardInputPath = "-"

    package var url: URL
    package var format: Format
    /// The bytes read from standard input when the recipe names `-`; nil for a file.
    package var standardInput: Data?
    /// EPUB spine items to read even if marked non-linear (`linear="no"`).
    package var include: [String]
    /// EPUB spine items not to read.
    package var exclude: [String]

    package init(url: URL, format: Format, standardInput: Data? = nil, include: [String] = [], exclude: [String] = []) {
        self.url = url
        self.format = format
        self.standardInput = standardInput
        self.include = include
        self.exclude = exclude
    }

    /// How items, chapters and messages name the source: its path, or `-` for standard input.
    package var displayPath: String { standardInput == nil ? url.path : Self.standardInputPath }

    /// The format implied by a file name's extension: `.md`/`.markdown` Markdown, `.html`/`.htm`
    /// HTML, `.xhtml` XHTML, `.epub` EPUB, `.script` a script, anything else plain text.
    package static func inferredFormat(for url: URL) -> Format {
        switch url.pathExtension.lowercased() {
        case "md", "markdown": return .markdown
        case "html", "htm": return .html
        case "xhtml": return .xhtml
        case "epub": return .epub
        case "script": return .script
        default: return .text
        }
    }
}
