import Foundation

/// Texts and recipes the tests build from.
enum Fixtures {
    /// The package root, found from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shipped sample: the first three chapters of Pride and Prejudice (91 items).
    static var sampleText: String {
        (try? String(
            contentsOf: packageRoot.appendingPathComponent("samples/pride-and-prejudice-ch1-3.txt"), encoding: .utf8))
            ?? ""
    }

    /// The first chapters of the shared corpus (about 300 items), or the sample when the corpus
    /// is not beside the package: long enough that a build killed every fraction of a second never finishes.
    static var longerText: String {
        let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent(
            "shared/corpus/pride-and-prejudice.txt")
        guard let text = try? String(contentsOf: corpus, encoding: .utf8) else { return sampleText }
        return text.split(separator: "\n", omittingEmptySubsequences: false).prefix(1400).joined(separator: "\n")
    }

    /// A short two-chapter book: quick to build, with the splitter's awkward cases in it.
    static let shortBook = """
        Chapter 1


        It is a truth universally acknowledged, that a single man in possession
        of a good fortune, must be in want of a wife.

        "My dear Mr. Bennet," said his lady to him one day, "have you heard that
        Netherfield Park is let at last?"

        Mr. Bennet replied that he had not.

        Chapter 2


        Mr. Bennet was among the earliest of those who waited on Mr. Bingley. He
        had always intended to visit him, though to the last always assuring his
        wife that he should not go.

        "Don’t keep coughing so, Kitty, for Heaven’s sake!"
        """

    /// The sample's first chapter (about 850 words, four minutes of audio).
    static var firstChapter: String {
        let lines = sampleText.split(separator: "\n", omittingEmptySubsequences: false)
        let second = lines.firstIndex { $0.hasPrefix("Chapter 2") } ?? lines.count
        return lines[..<second].joined(separator: "\n")
    }

    static func recipe(
        source: String = "book.txt", output: String = "out", voice: String = "en-us", rate: Int = 175,
        format: String = "wav", jobs: Int = 2, saveInterval: Int? = 1, maxCharacters: Int = 600, extra: String = ""
    ) -> String {
        """
        {
          "version": 1,
          "sources": ["\(source)"],
          "split": { "unit": "paragraph", "maxCharacters": \(maxCharacters) },
          "voice": { "engine": "espeak-ng", "id": "\(voice)", "rate": \(rate) },
          "audio": { "format": "\(format)", "sampleRate": 22050 },
          "build": { \(saveInterval.map { "\"saveInterval\": \($0), " } ?? "")"jobs": \(jobs) },\(extra.isEmpty ? "" : "\n  " + extra + ",")
          "output": { "directory": "\(output)" }
        }
        """
    }
}
