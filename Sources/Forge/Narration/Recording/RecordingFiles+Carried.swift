import Foundation
import Synchronization

extension RecordingFiles {
    /// Where the files' lengths are kept (beside the joined recording, for the same stamp).
    static let lengthsName = "tracks.txt"

    /// The recording as an EPUB can carry it without re-encoding (``CarriedRecording``): every file
    /// MP3, or every file AAC in MP4 (an M4B, M4A tracks). Nil for anything else (FLAC, Opus, WAV,
    /// a mix), which the export encodes once, and when the files decoded one by one do not add up
    /// to the recording the aligner read (`durationMs` long), since clips would then drift.
    /// A joined recording's file lengths are the join's (or, for a join that kept none, measured
    /// by decoding each, two at a time), kept in `recording/tracks.txt` with the join's stamp.
    package func carried(in directory: URL, durationMs: Int) throws -> CarriedRecording? {
        let extensions = Set(files.map { $0.pathExtension.lowercased() })
        let kind: (codec: String, mediaType: String, fileExtension: String)
        if extensions == ["mp3"] {
            kind = ("mp3", "audio/mpeg", "mp3")
        } else if extensions.isSubset(of: ["m4a", "m4b", "mp4"]) {
            kind = ("aac", "audio/mp4", "m4a")
        } else {
            return nil
        }
        if isOneDirectFile {
            guard FFmpegEncoder.codec(of: files[0]) == kind.codec else { return nil }
            return CarriedRecording(
                files: [.init(url: files[0], startMs: 0, durationMs: durationMs)], mediaType: kind.mediaType,
                fileExtension: kind.fileExtension)
        }
        guard let lengths = try lengths(in: directory, codec: kind.codec) else { return nil }
        let totalMs = Int(lengths.reduce(0, +) / 1000)
        guard abs(totalMs - durationMs) <= max(1_000, durationMs / 1_000) else {
            ForgeLog.debug(
                "not carrying the recording as it is: its files add up to \(totalMs) ms, the joined recording is \(durationMs) ms"
            )
            return nil
        }
        var carried: [CarriedRecording.File] = []
        var start: Int64 = 0
        for (file, length) in zip(files, lengths) {
            carried.append(
                .init(
                    url: file, startMs: Int(start / 1000), durationMs: Int((start + length) / 1000) - Int(start / 1000))
            )
            start += length
        }
        return CarriedRecording(files: carried, mediaType: kind.mediaType, fileExtension: kind.fileExtension)
    }

    /// Each file's length in microseconds as the join decoded it, or nil when one is not `codec`.
    private func lengths(in directory: URL, codec: String) throws -> [Int64]? {
        let owned = OwnedDirectory(root: directory)
        let path = "\(Self.folder)/\(Self.lengthsName)"
        let stamp = ContentHash.sha256Hex(Array(try self.stamp().utf8)) + " " + codec
        if let saved = try? owned.read(path) {
            let lines = String(decoding: saved, as: UTF8.self).split(separator: "\n").map(String.init)
            if lines.first == stamp {
                if lines.count == 2, lines[1] == "-" { return nil }
                let values = lines.dropFirst().compactMap { Int64($0) }
                if values.count == files.count { return values }
            }
        }
        let rate = FFmpegEncoder.sampleRate(of: files[0]) ?? Self.sampleRate
        let files = self.files
        // The join measured them as it decoded them: only an older join's files are decoded again.
        let joined = joinedLengths(in: directory)
        let measured = Mutex<[Int: Int64?]>([:])
        try BlockingThreads.forEachIndex(files.count, threads: 2, cancellation: nil) { index in
            guard FFmpegEncoder.codec(of: files[index]) == codec else {
                measured.withLock { $0[index] = .some(nil) }
                return
            }
            if let joined {
                measured.withLock { $0[index] = joined[index] }
                return
            }
            let length = try FFmpegEncoder.decodedMicroseconds(of: files[index], sampleRate: rate) { detail in
                NarrationError.unreadableRecording(
                    path: files[index].path, reason: "ffmpeg could not decode it: \(detail)")
            }
            measured.withLock { $0[index] = length }
        }
        let found = measured.withLock { $0 }
        let lengths = (0..<files.count).map { found[$0] ?? nil }
        let all = lengths.compactMap { $0 }
        let text = stamp + "\n" + (all.count == files.count ? all.map(String.init).joined(separator: "\n") : "-") + "\n"
        try owned.makeDirectory(Self.folder)
        // Whole or not at all: a length cut short by a kill would shift every clip after it.
        try owned.replaceFile(path, with: Array(text.utf8))
        return all.count == files.count ? all : nil
    }
}
