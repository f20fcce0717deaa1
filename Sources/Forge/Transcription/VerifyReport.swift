/// What `forge verify` (or a build's verify stage) found.
public struct VerifyReport: Sendable, Equatable {
    /// False when the recognizer could not run; `unavailableReason` says why.
    public var available: Bool
    public var unavailableReason: String?
    /// Chunks of the timelines not transcribed yet (the run was stopped): gaps the next run fills.
    public var missingChunks: Int = 0
    public var chunks: [ChunkReport]
    public var maxWordErrorRate: Double?
    public var recognizer: String
    public var elapsedSeconds: Double
    public var audioMs: Int

    public var transcribedChunks: Int { chunks.filter(\.transcribed).count }
    /// Word error rate over all chunks (errors over reference words).
    public var wordErrorRate: Double {
        let reference = chunks.reduce(0) { $0 + $1.referenceWords }
        return reference == 0 ? 0 : Double(chunks.reduce(0) { $0 + $1.errors }) / Double(reference)
    }
    public var failingChunks: [ChunkReport] { chunks.filter { $0.exceeds(maxWordErrorRate) } }
    /// Every chunk of the book was transcribed (none missing because a run was stopped).
    public var complete: Bool { available && missingChunks == 0 }
    /// Complete, and no chunk over the limit: a verification cut short never passes.
    public var passed: Bool { complete && failingChunks.isEmpty }

    /// Per chapter, the end of the furthest transcribed chunk: how far transcription has come.
    public var furthestTranscribedMs: [Int: Int] {
        chunks.reduce(into: [:]) { furthest, chunk in furthest[chunk.chapter] = max(furthest[chunk.chapter] ?? 0, chunk.endMs) }
    }

    static func unavailable(_ reason: String, maxWordErrorRate: Double?) -> VerifyReport {
        VerifyReport(available: false, unavailableReason: reason, missingChunks: 0, chunks: [], maxWordErrorRate: maxWordErrorRate, recognizer: "", elapsedSeconds: 0, audioMs: 0)
    }
}
