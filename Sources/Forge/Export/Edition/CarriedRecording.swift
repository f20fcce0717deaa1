import Foundation

/// A reader's recording carried into their EPUB as it came, without re-encoding: its files (all
/// MP3, or all AAC in MP4 — EPUB 3 core media types) in order, each with where it starts in the
/// recording the aligner read (its files decoded and joined end to end), so an overlay's clips
/// point into the original files.
package struct CarriedRecording: Sendable, Equatable {
    package struct File: Sendable, Equatable {
        package var url: URL
        /// Where the file starts in the joined recording, and how long it plays, in milliseconds.
        package var startMs: Int
        package var durationMs: Int
        package var endMs: Int { startMs + durationMs }
    }

    package var files: [File]
    /// `audio/mpeg` or `audio/mp4`.
    package var mediaType: String
    /// `mp3` or `m4a`: the files' extension in the EPUB.
    package var fileExtension: String

    package init(files: [File], mediaType: String, fileExtension: String) {
        self.files = files
        self.mediaType = mediaType
        self.fileExtension = fileExtension
    }

    /// The file's name in the EPUB's audio folder: `recording.mp3`, or `recording-001.mp3` … for several.
    func name(_ index: Int) -> String {
        files.count == 1 ? "recording.\(fileExtension)" : String(format: "recording-%03d.", index + 1) + fileExtension
    }

    /// The file that plays the recording's millisecond `ms` (the last file for a time past the end).
    func file(at ms: Int) -> Int {
        var low = 0
        var high = files.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if files[middle].startMs <= ms { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// A clip in the recording's time as clips of its files: one, or, for speech that runs over
    /// the end of a file (tracks cut mid-sentence), one in each file it plays in. Empty when it plays nothing.
    func clips(start: Int, end: Int) -> [(file: Int, start: Int, end: Int)] {
        var clips: [(file: Int, start: Int, end: Int)] = []
        var index = file(at: start)
        while index < files.count, files[index].startMs < end {
            let file = files[index]
            let clip = (index, max(0, start - file.startMs), min(end, file.endMs) - file.startMs)
            if clip.2 > clip.1 { clips.append(clip) }
            index += 1
        }
        return clips
    }
}
