import CSndFile
import Foundation

/// Encodes 16-bit mono PCM to WAV, FLAC, Ogg/Vorbis or MP3 with libsndfile, into a file
/// descriptor the caller owns (so the store can fsync and rename it).
public enum AudioEncoder {
    /// Writes `samples` to the open, empty file `descriptor` and flushes it to disk.
    public static func encode(
        _ samples: [Int16], sampleRate: Int, format: AudioSettings.Format, toDescriptor descriptor: Int32, path: String
    ) throws(SpeechError) {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = Int32(majorFormat(format) | subtype(format))
        guard sf_format_check(&info) != 0 else {
            throw .encodingFailed(path: path, reason: "libsndfile cannot write \(format.rawValue) at \(sampleRate) Hz")
        }
        guard let file = sf_open_fd(descriptor, Int32(SFM_WRITE), &info, 0) else {
            throw .encodingFailed(path: path, reason: String(cString: sf_strerror(nil)))
        }
        if format == .ogg || format == .mp3 {
            // A fixed quality keeps the encoded size predictable across builds.
            var quality = 0.6
            sf_command(file, Int32(SFC_SET_VBR_ENCODING_QUALITY), &quality, Int32(MemoryLayout<Double>.size))
        }
        let written = samples.withUnsafeBufferPointer { buffer in
            sf_write_short(file, buffer.baseAddress, sf_count_t(buffer.count))
        }
        let writeError = sf_error(file)
        let message = String(cString: sf_strerror(file))
        let closeStatus = sf_close(file)
        guard written == sf_count_t(samples.count), writeError == 0, closeStatus == 0 else {
            throw .encodingFailed(path: path, reason: "wrote \(written) of \(samples.count) samples: \(message)")
        }
        guard fsync(descriptor) == 0 else {
            throw .encodingFailed(path: path, reason: "fsync failed: \(String(cString: strerror(errno)))")
        }
    }

    private static func majorFormat(_ format: AudioSettings.Format) -> Int {
        switch format {
        case .wav: return Int(SF_FORMAT_WAV)
        case .flac: return Int(SF_FORMAT_FLAC)
        case .ogg: return Int(SF_FORMAT_OGG)
        case .mp3: return Int(SF_FORMAT_MPEG)
        }
    }

    private static func subtype(_ format: AudioSettings.Format) -> Int {
        switch format {
        case .wav, .flac: return Int(SF_FORMAT_PCM_16)
        case .ogg: return Int(SF_FORMAT_VORBIS)
        case .mp3: return Int(SF_FORMAT_MPEG_LAYER_III)
        }
    }
}
