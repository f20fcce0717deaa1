import Foundation

/// The recording as the recognizer hears it (16 kHz mono, ``RecognizerAudio``), kept in the
/// output directory's `recording/` folder while it is aligned, so a stopped alignment resumes
/// without reading the recording again, and a stop does not wait for the kernel to free
/// gigabytes of nameless scratch as the process ends.
///
/// The copy is written under a temporary name (removed when a stop ends the process, and by the
/// next run if the process dies) and renamed when whole; its stamp, written last, names the
/// recording's digest and what reading it found. ``remove(in:)`` deletes both once the alignment
/// is stored.
struct RecognizerCopy {
    /// What the stamp says: the copy is of the recording with this digest, made by this
    /// conversion, and reading that recording found this many frames (and this many missing).
    struct Stamp: Codable, Equatable {
        var audio: String
        var conversion: String
        var samples: Int
        var frames: Int
        var missingFrames: Int
    }

    static let samplesPath = "\(RecordingFiles.folder)/recognizer.s16"
    static let stampPath = "\(RecordingFiles.folder)/recognizer.stamp"
    /// Changes whenever ``RecognizerInputStream`` would give other samples for the same recording.
    static let conversion = "s16le-16000-1"

    /// The samples, read by the aligner's threads.
    let audio: RecognizerAudio
    let stamp: Stamp

    /// The copy kept for the recording with digest `audioHash`, or nil when there is none, it is
    /// another recording's, or it is not whole (its stamp and its size must agree).
    static func kept(for audioHash: String, in owned: OwnedDirectory) -> RecognizerCopy? {
        guard let data = try? owned.read(stampPath), let stamp = try? JSONDecoder().decode(Stamp.self, from: data),
            stamp.audio == audioHash, stamp.conversion == conversion, stamp.samples >= 0,
            let descriptor = try? owned.openForReading(samplesPath)
        else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) == stamp.samples * 2 else {
            close(descriptor)
            return nil
        }
        return RecognizerCopy(audio: RecognizerAudio(descriptor: descriptor, count: stamp.samples), stamp: stamp)
    }

    /// Reads `reader`'s recording (digest `audioHash`; `label` names it in errors) into a new copy,
    /// in place of any other, handing each block of the copy to `observe`; `progress` is told the share read.
    static func make(
        from reader: SoundFile.Reader, audioHash: String, label: String, in owned: OwnedDirectory,
        observe: ([Int16]) throws -> Void = { _ in }, progress: (Double) -> Void
    ) throws -> RecognizerCopy {
        remove(in: owned)
        _ = try owned.makeDirectory(RecordingFiles.folder)
        let scratch = "\(RecordingFiles.folder)/.recognizer.\(getpid()).tmp"
        let audio = try StopCleanup.removing(
            { unlink(owned.url(scratch).path) },
            whileRunning: {
                try RecognizerAudio(
                    reading: reader, into: try owned.createFile(scratch, readable: true), label: label,
                    observe: observe,
                    progress: progress)
            })
        guard rename(owned.url(scratch).path, owned.url(samplesPath).path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(owned.url(scratch).path)
            throw StoreError.writeFailed(path: owned.url(samplesPath).path, reason: reason)
        }
        let stamp = Stamp(
            audio: audioHash, conversion: conversion, samples: audio.count, frames: reader.framesRead,
            missingFrames: reader.missingFrames)
        try owned.replaceFile(stampPath, with: Array(try JSONEncoder().encode(stamp)))
        return RecognizerCopy(audio: audio, stamp: stamp)
    }

    /// Deletes the copy and its stamp (the stamp first, so a copy is never taken without one).
    static func remove(in owned: OwnedDirectory) {
        unlink(owned.url(stampPath).path)
        unlink(owned.url(samplesPath).path)
    }
}
