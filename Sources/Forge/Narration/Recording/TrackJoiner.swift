import Foundation
import Synchronization

/// Joins a recording's files into one: each decoded on its own by ffmpeg (as a player decodes
/// it, its encoder delay and padding dropped, whatever its codec) to 16-bit mono at one rate,
/// two at a time, and appended in order to one writer as soon as the files before it are in.
///
/// Not one ffmpeg joining all the files through its concat filter: that runs on one core,
/// spends as long again on the filter graph as on decoding, and has no progress to show.
struct TrackJoiner {
    let files: [URL]
    let sampleRate: Int
    /// Where each file's decoded samples wait for their turn (WAV files named `<prefix><index>.wav`).
    let folder: OwnedDirectory
    let partPrefix: String
    var decoders = 2
    /// How many decoded files may wait for their turn at once (each as long as its file decoded).
    var lookahead = 4

    /// Decodes every file into `writer`, in order; `progress` is told how many are in after each.
    /// Returns each file's length in samples. A file ffmpeg cannot decode stops the join with
    /// its path and ffmpeg's message.
    func join(into writer: SoundFile.Writer, progress: (Int) -> Void = { _ in }) throws -> [Int] {
        let count = files.count
        let parts = (0..<count).map { "\(partPrefix)\($0).wav" }
        defer { for part in parts { unlink(folder.url(part).path) } }
        let ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        let room = DispatchSemaphore(value: max(decoders, lookahead))
        let next = Mutex(0)
        let failure = Mutex<(any Error)?>(nil)
        let (files, rate, folder) = (files, sampleRate, folder)
        BlockingThreads.start(
            max(1, min(decoders, count)),
            body: { _ in
                while true {
                    let index = next.withLock { index in
                        defer { index += 1 }
                        return index
                    }
                    guard index < count else { return }
                    room.wait()
                    defer { ready[index].signal() }
                    guard failure.withLock({ $0 == nil }) else { continue }
                    do {
                        let part = folder.url(parts[index]).path
                        try StopCleanup.removing({ unlink(part) }) {
                            close(try folder.createFile(parts[index]))
                            try FFmpegEncoder.run(
                                [
                                    "-i", files[index].path, "-map", "0:a:0", "-af",
                                    "aformat=sample_fmts=s16:channel_layouts=mono,aresample=\(rate)",
                                    // RF64 past 4 GB: one file may be a whole audiobook (an M4B).
                                    "-c:a", "pcm_s16le", "-rf64", "auto", "-f", "wav", part,
                                ],
                                failure: { detail in
                                    NarrationError.unreadableRecording(
                                        path: files[index].path, reason: "ffmpeg could not decode it: \(detail)")
                                })
                        }
                    } catch {
                        failure.withLock { $0 = $0 ?? error }
                    }
                }
            })
        var lengths: [Int] = []
        var thrown: (any Error)?
        for index in 0..<count {
            ready[index].wait()
            defer { room.signal() }
            guard thrown == nil else { continue }
            if let error = failure.withLock({ $0 }) {
                thrown = error
                continue
            }
            do {
                lengths.append(try append(parts[index], to: writer))
                unlink(folder.url(parts[index]).path)
                progress(index + 1)
            } catch {
                thrown = error
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let thrown { throw thrown }
        return lengths
    }

    /// Appends one decoded file to `writer` a block at a time; its length in samples.
    private func append(_ part: String, to writer: SoundFile.Writer) throws -> Int {
        let reader = try SoundFile.Reader(url: folder.url(part))
        while true {
            let block = try reader.read()
            if block.isEmpty { return reader.framesRead }
            try writer.write(block[...])
        }
    }
}
