import Foundation

/// How an EPUB carries each chapter's audio file.
enum EPUBAudio: Sendable {
    /// AAC in MP4 (an EPUB 3 core media type), copied from the chapters' shared encodings
    /// (``ChapterEncoder``, by chapter: one encoding, or a long chapter's pieces): no encode of the
    /// EPUB's own, and the M4B's sound.
    case aac(encoded: [[StoredObject]], sampleRate: Int)
    /// MP3 encoded for the EPUB (`exports.epubAudio: "mp3"`, for reading systems that play no AAC,
    /// or chapters at different sample rates).
    case mp3

    var fileExtension: String {
        switch self {
        case .aac: "m4a"
        case .mp3: "mp3"
        }
    }

    var mediaType: String {
        switch self {
        case .aac: "audio/mp4"
        case .mp3: "audio/mpeg"
        }
    }

    /// Writes chapter `index`'s audio into the new empty file `url`, open at `descriptor` (closed here).
    func write(
        _ index: Int, timeline: ChapterTimeline, to url: URL, descriptor: Int32, label: String, store: ObjectStore,
        settings: ExportSettings,
        stop: CancellationFlag
    ) throws {
        switch self {
        case .mp3:
            try ChapterAudio.write(
                timeline, store: store, settings: settings, format: .mp3, to: descriptor, label: label,
                cancellation: stop)
        case .aac(let encoded, let sampleRate):
            // The first piece's leading frame primes the decoder (the file's edit list skips it); each
            // later piece's is left out, the previous piece's last frame being in its place.
            var file = MP4AudioFile(
                store: store, sampleRate: sampleRate, language: AudiobookExport.isoLanguage(settings.language))
            file.marksChapters = false
            let pieces = encoded[index].enumerated().map { MP4AudioFile.Piece(path: $1.path, skip: $0 == 0 ? 0 : 1) }
            try file.write(
                [MP4AudioFile.Chapter(pieces: pieces, title: timeline.chapter.title, samples: timeline.totalSamples)],
                to: descriptor, label: label, cancellation: stop)
        }
    }
}
