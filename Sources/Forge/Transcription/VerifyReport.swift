/// What `forge verify` (or a build's verify stage) found.
package struct VerifyReport: Sendable, Equatable {
    /// False when the recognizer could not run; `unavailableReason` says why.
    package var available: Bool
    package var unavailableReason: String?
    /// Chunks of the timelines not transcribed yet (the run was stopped): gaps the next run fills.
    package var missingChunks: Int = 0
    package var chunks: [ChunkReport]
    package var maxWordErrorRate: Double?
    package var recognizer: String
    package var elapsedSeconds: Double
    package var audioMs: Int
    package var mode: VerifyMode = .full
    /// Every item's quick check; nil when the run stopped before it finished (or could not run).
    package var screen: ScreenReport?
    /// Chunks the quick check left out of its sample (neither transcribed nor missing).
    package var unsampledChunks = 0
    /// Utterances transcribed by this run whose every expected word alignment found.
    package var alignedUtterances = 0
    /// Utterances transcribed by this run with the chunk's language model: a word alignment did
    /// not find (a fault, or a word the alignment missed), or none expected.
    package var decodedUtterances = 0
    /// Items this run flagged for unheard words and heard again on their own (a chunk's decoder
    /// can mishear a clean item), and how many of them passed then.
    package var itemsHeardAgain = 0
    package var flagsCleared = 0

    package var transcribedChunks: Int { chunks.filter(\.transcribed).count }
    /// Word error rate over all chunks (errors over reference words).
    package var wordErrorRate: Double {
        let reference = chunks.reduce(0) { $0 + $1.referenceWords }
        return reference == 0 ? 0 : Double(chunks.reduce(0) { $0 + $1.errors }) / Double(reference)
    }
    package var failingChunks: [ChunkReport] { chunks.filter { $0.exceeds(maxWordErrorRate) } }
    /// Every chunk of the book was transcribed (none missing because a run was stopped).
    package var complete: Bool { available && missingChunks == 0 && screen != nil }

    /// The SHA-256 of each flagged item's audio as it was heard: what a person accepts it for.
    package var flaggedAudio: [String: String] = [:]
    /// Flagged items a person accepted for this very audio (``VerifySettings/accepted``): reported,
    /// but they do not fail the verification.
    package var acceptedItemIDs: Set<String> = []

    /// Items flagged by transcription (a run of unheard words) or by the screen, and not accepted, by id.
    package var flaggedItemIDs: Set<String> {
        allFlaggedItemIDs.subtracting(acceptedItemIDs)
    }

    /// Every item flagged, accepted or not.
    package var allFlaggedItemIDs: Set<String> {
        Set(chunks.flatMap { $0.flaggedItems.map(\.itemID) }).union(screen?.flagged.map(\.itemID) ?? [])
    }

    /// The audio the reported chunks cover: all of ``audioMs`` once complete, less after a stop.
    package var coveredMs: Int { chunks.reduce(0) { $0 + $1.endMs - $1.startMs } }
    /// Complete, and with a limit set no chunk over it and no item flagged (an item flagged does not
    /// say what its text says: the gate that lets a book ship must stop it); a verification cut short
    /// never passes. Without a limit the report is for reading.
    package var passed: Bool {
        complete && failingChunks.isEmpty && (maxWordErrorRate == nil || flaggedItemIDs.isEmpty)
    }

    /// Per chapter, the end of the furthest transcribed chunk: how far transcription has come.
    package var furthestTranscribedMs: [Int: Int] {
        chunks.reduce(into: [:]) { furthest, chunk in
            furthest[chunk.chapter] = max(furthest[chunk.chapter] ?? 0, chunk.endMs)
        }
    }

    static func unavailable(_ reason: String, maxWordErrorRate: Double?) -> VerifyReport {
        VerifyReport(
            available: false, unavailableReason: reason, missingChunks: 0, chunks: [],
            maxWordErrorRate: maxWordErrorRate, recognizer: "", elapsedSeconds: 0, audioMs: 0)
    }
}
