import Forge

/// `forge verify --json`: every chunk's word error rate and flagged items, the screen's findings,
/// and whether the book passed.
struct VerifyReportJSON: Encodable {
    var available: Bool
    var passed: Bool
    var wordErrorRate: JSONNull<Double>
    var chunks: [Chunk]
    var transcribedChunks: Int
    var missingChunks: Int
    /// Per chapter (its ordinal, as a string key), how far into it transcription has reached.
    var furthestTranscribedMs: [String: Int]
    var recognizer: String
    var audioMs: Int
    var coveredMs: Int
    var elapsedSeconds: JSONNull<Double>
    var mode: String
    var unsampledChunks: Int
    var alignedUtterances: Int
    var decodedUtterances: Int
    /// Items flagged for unheard words and heard again on their own, and those that passed then.
    var itemsHeardAgain: Int
    var flagsCleared: Int
    var flaggedItems: [String]
    /// Flagged items accepted for their audio (the recipe's `verify.accept`).
    var acceptedItems: [String]
    /// Each flagged item's audio digest (SHA-256): what `verify.accept` names.
    var flaggedAudio: [FlaggedAudio]

    struct FlaggedAudio: Encodable {
        var id: String
        var sha256: String
    }
    var screen: Screen?
    var unavailableReason: String?
    var maxWordErrorRate: Double?

    struct Chunk: Encodable {
        var chapter: Int
        var chunk: Int
        var startMs: Int
        var endMs: Int
        var wordErrorRate: JSONNull<Double>
        var referenceWords: Int
        var errors: Int
        var exceeds: Bool
        var transcribed: Bool
        var flaggedItems: [FlaggedItem]
    }

    struct FlaggedItem: Encodable {
        var id: String
        /// The checks that flagged it: `unheard-words` (most of its words not heard), `extra-speech`
        /// (words heard in its audio beyond its text).
        var checks: [String]
        var missingWords: [String]
        var extraWords: [String]
    }

    struct Screen: Encodable {
        var items: Int
        var profiledVoices: Int
        var elapsedSeconds: JSONNull<Double>
        var flaggedItems: [ScreenedItem]
    }

    struct ScreenedItem: Encodable {
        var id: String
        var chapter: Int
        var startMs: Int
        var endMs: Int
        var findings: [Finding]
    }

    struct Finding: Encodable {
        var name: String
        var description: String
    }

    init(_ report: VerifyReport) {
        available = report.available
        passed = report.passed
        wordErrorRate = JSONOutput.rounded(report.wordErrorRate, places: 4)
        chunks = report.chunks.map { chunk in
            Chunk(
                chapter: chunk.chapter, chunk: chunk.index, startMs: chunk.startMs, endMs: chunk.endMs,
                wordErrorRate: JSONOutput.rounded(chunk.wordErrorRate, places: 4), referenceWords: chunk.referenceWords,
                errors: chunk.errors, exceeds: chunk.exceeds(report.maxWordErrorRate), transcribed: chunk.transcribed,
                flaggedItems: chunk.flaggedItems.map {
                    FlaggedItem(
                        id: $0.itemID, checks: $0.checks, missingWords: $0.missingWords, extraWords: $0.extraWords)
                })
        }
        transcribedChunks = report.transcribedChunks
        missingChunks = report.missingChunks
        furthestTranscribedMs = Dictionary(
            uniqueKeysWithValues: report.furthestTranscribedMs.map { (String($0.key), $0.value) })
        recognizer = report.recognizer
        audioMs = report.audioMs
        coveredMs = report.coveredMs
        elapsedSeconds = JSONOutput.rounded(report.elapsedSeconds, places: 4)
        mode = report.mode.rawValue
        unsampledChunks = report.unsampledChunks
        alignedUtterances = report.alignedUtterances
        decodedUtterances = report.decodedUtterances
        itemsHeardAgain = report.itemsHeardAgain
        flagsCleared = report.flagsCleared
        flaggedItems = report.flaggedItemIDs.sorted()
        acceptedItems = report.acceptedItemIDs.sorted()
        flaggedAudio = report.flaggedAudio.sorted { $0.key < $1.key }.map { FlaggedAudio(id: $0.key, sha256: $0.value) }
        screen = report.screen.map { screen in
            Screen(
                items: screen.items, profiledVoices: screen.profiledVoices,
                elapsedSeconds: JSONOutput.rounded(screen.elapsedSeconds, places: 4),
                flaggedItems: screen.flagged.map { item in
                    ScreenedItem(
                        id: item.itemID, chapter: item.chapter, startMs: item.startMs, endMs: item.endMs,
                        findings: item.findings.map { Finding(name: $0.name, description: $0.description) })
                })
        }
        unavailableReason = report.unavailableReason
        maxWordErrorRate = report.maxWordErrorRate
    }
}
