import Forge
import Foundation

/// One input reader of Forge's that takes untrusted bytes, run on one fuzz input. Errors are the
/// expected answer to bad input; a crash, a hang or runaway memory is a finding.
enum FuzzTarget: String, CaseIterable {
    case recipe, text, markdown, script, html, xhtml, epub, lexicon

    /// Where a recipe's relative paths point: an empty folder of its own.
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("forge-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func run(_ data: Data) {
        switch self {
        case .recipe:
            _ = try? RecipeLoader().parse(data, file: Self.folder.appendingPathComponent("recipe.json"))
        case .text, .markdown, .script:
            let format: SourceFile.Format = self == .text ? .text : self == .markdown ? .markdown : .script
            let text = String(decoding: data, as: UTF8.self)
            let result = Splitter(settings: SplitSettings(maxCharacters: 200)).split([
                (path: "fuzz", format: format, text: text)
            ])
            // Every item's words must lie inside its text.
            for item in result.items {
                let length = item.text.unicodeScalars.count
                for word in item.words where word.start < 0 || word.end > length || word.start >= word.end {
                    fatalError(
                        "item \(item.id): the word \(word.start)..<\(word.end) lies outside its text of \(length) scalars"
                    )
                }
            }
        case .html, .xhtml:
            let text = String(decoding: data, as: UTF8.self)
            guard let document = try? HTMLReader(mode: self == .html ? .html : .xhtml).read(text, path: "fuzz.html")
            else { return }
            // Every block's source offsets lie in the source, going forward; its element's is a "<".
            let scalars = Array(text.unicodeScalars)
            for block in document.blocks {
                if let bad = block.origins.first(where: { $0 < 0 || $0 >= scalars.count }) {
                    fatalError("a source offset \(bad) outside the \(scalars.count) scalars")
                }
                if block.origins != block.origins.sorted() {
                    fatalError("source offsets go backwards: \(block.origins)")
                }
                if let element = block.element, element.offset >= scalars.count || scalars[element.offset] != "<" {
                    fatalError("the element <\(element.name)>'s offset \(element.offset) is not at its \"<\"")
                }
            }
        case .epub:
            _ = try? EPUBReader().read(data, name: "fuzz.epub")
        case .lexicon:
            _ = try? Lexicon.parse(String(decoding: data, as: UTF8.self), file: "fuzz.lexicon")
        }
    }

    /// Points standard input at /dev/null: a recipe whose source is "-" would wait on it.
    static func detachStandardInput() {
        let null = open("/dev/null", O_RDONLY)
        if null >= 0 { dup2(null, STDIN_FILENO) }
    }

    /// The target named by `FORGE_FUZZ_TARGET`.
    static var selected: FuzzTarget {
        let name = ProcessInfo.processInfo.environment["FORGE_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(
                Data("Set FORGE_FUZZ_TARGET to one of: \(allCases.map(\.rawValue).joined(separator: ", ")).\n".utf8))
            exit(2)
        }
        return target
    }
}
