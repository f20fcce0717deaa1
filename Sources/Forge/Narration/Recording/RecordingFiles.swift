import Foundation

/// The audio of a recording as a reader has it — one file, a folder of numbered tracks, several
/// files in order — made into one file the aligner reads: kept as it is when it is one file
/// libsndfile reads (WAV, FLAC, Ogg Vorbis, MP3), else each decoded by ffmpeg and joined into one
/// mono FLAC at the first file's rate in the output directory (M4B/M4A, Opus, several tracks;
/// ``TrackJoiner``), made again only when an input changed.
package struct RecordingFiles: Sendable {
    /// The audio files in reading order.
    package let files: [URL]

    /// Formats read as audio when a folder is given.
    static let audioExtensions: Set<String> = [
        "mp3", "m4a", "m4b", "aac", "mp4", "flac", "ogg", "oga", "opus", "wav", "webm", "wma",
    ]
    /// Formats libsndfile reads directly, as one file.
    static let directExtensions: Set<String> = ["wav", "flac", "ogg", "oga", "mp3"]
    /// The most files one recording is made of: a long audiobook has a few hundred tracks; more
    /// is a wrong folder, refused at once.
    package static let maximumFiles = 1_000
    /// The joined recording's sample rate when the first file's cannot be read.
    static let sampleRate = 44_100
    /// Where a joined recording is kept, relative to the output directory.
    static let folder = "recording"
    static let joinedName = "joined.flac"

    /// The files `inputs` name, folders expanded to the audio files in them (numbered tracks in
    /// their numbers' order: "2" before "10").
    package init(_ inputs: [URL]) throws(NarrationError) {
        var files: [URL] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isDirectory) else {
                throw .unreadableRecording(path: input.path, reason: "no such file or folder")
            }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: input.path)) ?? []
                let tracks = names.filter {
                    !$0.hasPrefix(".") && Self.audioExtensions.contains(($0 as NSString).pathExtension.lowercased())
                }
                guard tracks.count <= Self.maximumFiles else {
                    throw .unreadableRecording(
                        path: input.path,
                        reason: "it holds \(tracks.count) audio files; a recording is at most \(Self.maximumFiles)")
                }
                guard !tracks.isEmpty else {
                    throw .unreadableRecording(
                        path: input.path,
                        reason:
                            "the folder holds no audio files (\(Self.audioExtensions.sorted().joined(separator: ", ")))"
                    )
                }
                files += tracks.sorted { $0.localizedStandardCompare($1) == .orderedAscending }.map {
                    input.appendingPathComponent($0)
                }
            } else {
                files.append(input)
            }
            guard files.count <= Self.maximumFiles else {
                throw .unreadableRecording(
                    path: input.path, reason: "the recording is more than \(Self.maximumFiles) files")
            }
        }
        guard !files.isEmpty else { throw .unreadableRecording(path: "(none)", reason: "no audio was given") }
        self.files = files.map(\.standardizedFileURL)
    }

    /// Whether the recording is one file read as it is.
    package var isOneDirectFile: Bool {
        files.count == 1 && Self.directExtensions.contains(files[0].pathExtension.lowercased())
    }

    /// The file to align: the one input, or the inputs joined into `recording/joined.flac` in
    /// `directory` (reused when it was joined from the same files, sizes and times). `progress`
    /// is told how many files are in after each one joined.
    package func prepared(in directory: URL, progress: (Int) -> Void = { _ in }) throws -> URL {
        if isOneDirectFile { return files[0] }
        let owned = OwnedDirectory(root: directory)
        try owned.makeDirectory(Self.folder)
        let target = "\(Self.folder)/\(Self.joinedName)"
        let stampPath = "\(Self.folder)/joined.stamp"
        let lengthsPath = "\(Self.folder)/\(Self.joinedLengthsName)"
        let stamp = try self.stamp()
        if OwnedDirectory.entry(at: owned.url(target).path) == .file, (try? owned.read(stampPath)) == Data(stamp.utf8) {
            return owned.url(target)
        }
        let scratch = "\(Self.folder)/.joined.\(getpid()).tmp"
        for path in [stampPath, lengthsPath] { unlink(owned.url(path).path) }
        defer { unlink(owned.url(scratch).path) }
        // Joined at the first file's rate: an audiobook's tracks share one, and resampling
        // changes what the recognizer hears.
        let rate = FFmpegEncoder.sampleRate(of: files[0]) ?? Self.sampleRate
        let pid = getpid()
        let lengths = try StopCleanup.removing(
            { Self.removeLeftovers(in: owned, of: pid) },
            whileRunning: {
                let writer = try SoundFile.Writer(
                    descriptor: try owned.createFile(scratch, readable: true), format: .flac, sampleRate: rate,
                    label: owned.url(target).path)
                let lengths = try TrackJoiner(
                    files: files, sampleRate: rate, folder: owned, partPrefix: "\(Self.folder)/.part.\(pid)."
                ).join(into: writer, progress: progress)
                try writer.finish()
                return lengths
            })
        guard rename(owned.url(scratch).path, owned.url(target).path) == 0 else {
            throw StoreError.writeFailed(path: owned.url(target).path, reason: String(cString: strerror(errno)))
        }
        // Each file's length as joined (what an EPUB carrying the files cuts its clips by), then
        // the stamp that says the join is whole.
        try owned.replaceFile(
            lengthsPath, with: Array(([String(rate)] + lengths.map(String.init)).joined(separator: "\n").utf8))
        try owned.replaceFile(stampPath, with: Array(stamp.utf8))
        return owned.url(target)
    }

    /// Removes the temporary files of `recording/` — a join's decoded files and joined FLAC, a
    /// recognizer's copy (``RecognizerCopy``) — of the process `pid`, or of any process when nil:
    /// what a killed run left (a run holds the output directory's lock while it writes them, so
    /// no running forge's are among them, whatever process now has that pid; the workspace's
    /// sweep keeps files whose pid is running again, and a reused pid would keep a copy of gigabytes).
    static func removeLeftovers(in owned: OwnedDirectory, of pid: pid_t? = nil) {
        let prefixes = [".part.", ".joined.", ".recognizer."].map { prefix in pid.map { "\(prefix)\($0)." } ?? prefix }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: owned.url(folder).path)) ?? []
        where prefixes.contains(where: name.hasPrefix) {
            unlink(owned.url("\(folder)/\(name)").path)
        }
    }

    /// Beside the joined recording: its sample rate, then each file's length in samples.
    static let joinedLengthsName = "joined.lengths"

    /// Each file's length in microseconds as the join decoded it, when the join in `directory`
    /// is of these files (nil when there is none, or it is another's).
    func joinedLengths(in directory: URL) -> [Int64]? {
        let owned = OwnedDirectory(root: directory)
        guard let stamp = try? self.stamp(), (try? owned.read("\(Self.folder)/joined.stamp")) == Data(stamp.utf8),
            let saved = try? owned.read("\(Self.folder)/\(Self.joinedLengthsName)")
        else { return nil }
        let values = String(decoding: saved, as: UTF8.self).split(separator: "\n").compactMap { Int64($0) }
        guard values.count == files.count + 1, let rate = values.first, rate > 0 else { return nil }
        return values.dropFirst().map { $0 * 1_000_000 / rate }
    }

    /// What the joined file was made from: each input's path, size and modification time, and ffmpeg.
    func stamp() throws -> String {
        var text =
            "ffmpeg: \(try FFmpegEncoder.identity())\njoined: each decoded by ffmpeg to s16 mono at the first file's rate, appended as FLAC by libsndfile\n"
        for file in files {
            var status = stat()
            guard stat(file.path, &status) == 0 else {
                throw NarrationError.unreadableRecording(path: file.path, reason: String(cString: strerror(errno)))
            }
            text += "\(file.path)\t\(status.st_size)\t\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)\n"
        }
        return text
    }
}
