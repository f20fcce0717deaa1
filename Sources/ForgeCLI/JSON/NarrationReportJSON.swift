import Forge

/// The closing `narration` line of `forge align narration --json`: how the recording and its text
/// agree, where they disagree, and what was written.
struct NarrationReportJSON: Encodable {
    let event = "narration"
    var output: String
    var passed: Bool
    var items: Int
    var words: Int
    var durationMs: Int
    var unmatchedWords: Int
    var speechMs: Int
    var unmatchedSpeechMs: Int
    var unmatchedFraction: JSONNull<Double>
    var maxUnmatched: Double
    var itemsNotInRecording: Int
    var reusedAlignment: Bool
    var resumedFromMs: Int?
    var examinedMs: Int?
    var exported: Int
    var elapsedSeconds: JSONNull<Double>
    var warnings: [String]
    var spans: [Span]
    /// The first ``listedWords`` words not clearly heard where the text puts them.
    var unheard: [UnheardWord]

    static let listedWords = 1_000

    struct Span: Encodable {
        var kind: String
        var startMs: Int
        var endMs: Int
        var firstItem: String?
        var firstWord: Int?
        var lastItem: String?
        var lastWord: Int?
        var text: String?
    }

    struct UnheardWord: Encodable {
        var item: String
        var word: String
        var startMs: Int
    }

    init(_ report: NarrationReport) {
        output = report.outputDirectory
        passed = report.passed
        items = report.items
        words = report.words
        durationMs = report.durationMs
        unmatchedWords = report.unmatchedWords
        speechMs = report.speechMs
        unmatchedSpeechMs = report.unmatchedSpeechMs
        unmatchedFraction = JSONOutput.rounded(report.unmatchedFraction, places: 4)
        maxUnmatched = report.maxUnmatched
        itemsNotInRecording = report.itemsNotInRecording
        reusedAlignment = report.reusedAlignment
        resumedFromMs = report.resumedFromMs
        examinedMs = report.examinedMs
        exported = report.exportedFiles.count
        elapsedSeconds = JSONOutput.rounded(report.elapsedSeconds, places: 3)
        warnings = report.warnings.map(\.text)
        spans = report.spans.map { span in
            var row = Span(kind: span.kind.rawValue, startMs: span.startMs, endMs: span.endMs, text: span.text)
            if let first = span.firstWord, let last = span.lastWord {
                row.firstItem = first.item
                row.firstWord = first.index
                row.lastItem = last.item
                row.lastWord = last.index
            }
            return row
        }
        unheard = report.unheard.prefix(Self.listedWords).map {
            UnheardWord(item: $0.itemID, word: $0.word, startMs: $0.startMs)
        }
    }
}
