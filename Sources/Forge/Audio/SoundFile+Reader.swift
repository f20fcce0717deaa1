import CSndFile
import Foundation

extension SoundFile {
    /// Reads an audio file a block at a time as mono 16-bit PCM (channels averaged), so a recording
    /// hours long is never held whole: what ``SoundFile/decode(fileAt:)`` gives, in pieces.
    ///
    /// One reader reads one file, front to back, on one task at a time; it is not `Sendable`.
    package final class Reader {
        package let url: URL
        package let sampleRate: Int
        /// Frames the file's header promises (exact for WAV, FLAC and Ogg; an MP3's is an estimate).
        package let promisedFrames: Int
        /// Whether the header's frame count is exact, so a shortfall means a damaged or cut file.
        package let exactLength: Bool
        /// Frames read so far.
        package private(set) var framesRead = 0

        private let file: OpaquePointer
        private let channels: Int
        private var buffer: [Int16]

        /// Opens `url`; throws ``AudioError/unreadable(path:reason:)`` when it is not audio.
        package init(url: URL) throws(AudioError) {
            self.url = url
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw .unreadable(path: url.path, reason: "no such readable file")
            }
            var info = SF_INFO()
            guard let file = sf_open(url.path, Int32(SFM_READ), &info) else {
                throw .unreadable(path: url.path, reason: SoundFile.openFailure(at: url))
            }
            guard info.samplerate > 0 else {
                sf_close(file)
                throw .unreadable(path: url.path, reason: "no sample rate")
            }
            self.file = file
            sampleRate = Int(info.samplerate)
            channels = max(1, Int(info.channels))
            promisedFrames = info.frames > 0 && info.frames < Int64(Int.max) ? Int(info.frames) : 0
            exactLength = [SF_FORMAT_WAV, SF_FORMAT_FLAC, SF_FORMAT_OGG].contains(
                Int(info.format) & Int(SF_FORMAT_TYPEMASK))
            buffer = [Int16](repeating: 0, count: Self.blockFrames * channels)
        }

        deinit { sf_close(file) }

        /// Frames read per call to libsndfile.
        package static let blockFrames = 65_536

        /// Up to `count` next frames (fewer at the end of the file: an empty array there).
        package func read(upTo count: Int = SoundFile.Reader.blockFrames) throws(AudioError) -> [Int16] {
            var mono: [Int16] = []
            mono.reserveCapacity(min(count, Self.blockFrames))
            while mono.count < count {
                let wanted = min(Self.blockFrames, count - mono.count)
                let frames = Int(
                    buffer.withUnsafeMutableBufferPointer { sf_readf_short(file, $0.baseAddress, sf_count_t(wanted)) })
                if frames <= 0 { break }
                if channels == 1 {
                    mono.append(contentsOf: buffer[0..<frames])
                } else {
                    for frame in 0..<frames {
                        var sum = 0
                        for channel in 0..<channels { sum += Int(buffer[frame * channels + channel]) }
                        mono.append(Int16(clamping: sum / channels))
                    }
                }
                framesRead += frames
            }
            if mono.isEmpty, sf_error(file) != 0 {
                throw .unreadable(path: url.path, reason: String(cString: sf_strerror(file)))
            }
            return mono
        }

        /// Reads and drops `count` frames.
        package func skip(_ count: Int) throws(AudioError) {
            var left = count
            while left > 0 {
                let block = try read(upTo: min(left, Self.blockFrames))
                if block.isEmpty { return }
                left -= block.count
            }
        }

        /// Frames the header promised that could not be read, once the file has been read to its end
        /// (a damaged or cut file: libsndfile stops at the first frame it cannot decode).
        package var missingFrames: Int { exactLength && promisedFrames > framesRead ? promisedFrames - framesRead : 0 }
    }
}
