import CSndFile
import Foundation

/// libsndfile: encodes 16-bit mono PCM to WAV, FLAC, Ogg/Vorbis or MP3 in memory (through
/// libsndfile's virtual I/O, so the store can hash the bytes without reading the file back), and
/// decodes any of those (plus Opus and the other formats libsndfile reads) to mono PCM.
package enum SoundFile {
    /// The encoded file's bytes are page-aligned, so the store writes them to disk directly
    /// (``DirectWriteBuffer``) without copying them first.
    package static func encode(_ samples: [Int16], sampleRate: Int, format: AudioSettings.Format) throws(AudioError)
        -> Data
    {
        let label = "\(format.rawValue) audio"
        var info = try writeInfo(format: format, sampleRate: sampleRate, label: label)
        // Room for the whole file (16-bit PCM and a header; compressed formats need less), so the
        // buffer is not copied as it grows.
        let memory = EncodingFile(capacity: samples.count * 2 + 4096)
        var io = encodingIO()
        let user = Unmanaged.passUnretained(memory).toOpaque()
        guard let file = sf_open_virtual(&io, Int32(SFM_WRITE), &info, user) else {
            throw .encodingFailed(path: label, reason: String(cString: sf_strerror(nil)))
        }
        setQuality(file, format: format)
        let written = samples.withUnsafeBufferPointer { buffer in
            sf_write_short(file, buffer.baseAddress, sf_count_t(buffer.count))
        }
        let writeError = sf_error(file)
        let message = String(cString: sf_strerror(file))
        let closeStatus = sf_close(file)
        guard written == sf_count_t(samples.count), writeError == 0, closeStatus == 0 else {
            throw .encodingFailed(path: label, reason: "wrote \(written) of \(samples.count) samples: \(message)")
        }
        return withExtendedLifetime(memory) { memory.takeBytes() }
    }

    /// An audio file written block by block, so an export never holds a whole chapter's
    /// encoded (or, unmastered, decoded) audio in memory.
    package final class Writer {
        // Owned by this writer alone and used from one thread at a time (exports are sequential).
        private var file: OpaquePointer?
        private let label: String

        /// Starts writing `format` at `sampleRate` into the new, empty file open at `descriptor`,
        /// which the writer closes; `label` names the file in errors.
        package init(descriptor: Int32, format: AudioSettings.Format, sampleRate: Int, label: String) throws(AudioError)
        {
            self.label = label
            var info: SF_INFO
            do { info = try SoundFile.writeInfo(format: format, sampleRate: sampleRate, label: label) } catch {
                close(descriptor)
                throw error
            }
            guard let file = sf_open_fd(descriptor, Int32(SFM_WRITE), &info, 1) else {
                close(descriptor)
                throw .encodingFailed(path: label, reason: String(cString: sf_strerror(nil)))
            }
            SoundFile.setQuality(file, format: format)
            self.file = file
        }

        deinit {
            if let file { sf_close(file) }
        }

        package func write(_ samples: ArraySlice<Int16>) throws(AudioError) {
            guard let file, !samples.isEmpty else { return }
            let written = samples.withUnsafeBufferPointer { buffer in
                sf_write_short(file, buffer.baseAddress, sf_count_t(buffer.count))
            }
            guard written == sf_count_t(samples.count) else {
                throw .encodingFailed(
                    path: label,
                    reason: "wrote \(written) of \(samples.count) samples: \(String(cString: sf_strerror(file)))")
            }
        }

        /// Finishes the file (headers, the encoder's last frames) and closes it.
        package func finish() throws(AudioError) {
            guard let file else { return }
            self.file = nil
            let status = sf_close(file)
            guard status == 0 else { throw .encodingFailed(path: label, reason: String(cString: sf_strerror(nil))) }
        }
    }

    /// Decodes an audio file to mono 16-bit PCM (channels are averaged).
    package static func decode(fileAt url: URL) throws(AudioError) -> DecodedAudio {
        var info = SF_INFO()
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw .unreadable(path: url.path, reason: "no such readable file")
        }
        guard let file = sf_open(url.path, Int32(SFM_READ), &info) else {
            throw .unreadable(path: url.path, reason: openFailure(at: url))
        }
        return try read(file, info: info, label: url.path)
    }

    /// Why libsndfile could not open the file at `url`, in words for its owner: a text file (a
    /// book saved under an audio name) is said to be text; otherwise libsndfile's own reason, but
    /// for its most common one ("does not exist or is not a regular file", for a file that does
    /// exist), said as what it means here.
    static func openFailure(at url: URL) -> String {
        let reason = String(cString: sf_strerror(nil))
        guard let handle = try? FileHandle(forReadingFrom: url) else { return reason }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        if !head.isEmpty, !head.contains(0), let text = String(data: head, encoding: .utf8),
            text.unicodeScalars.allSatisfy({
                !$0.properties.isDefaultIgnorableCodePoint && ($0.value >= 32 || $0 == "\n" || $0 == "\r" || $0 == "\t")
            })
        {
            return "it is a text file, not audio"
        }
        if reason.contains("not a regular file") {
            return "its contents are not audio in a format Forge reads"
        }
        return reason
    }

    /// The number of frames and the sample rate of an audio file, read from its header only.
    package static func frameCount(fileAt url: URL) throws(AudioError) -> (frames: Int, sampleRate: Int) {
        var info = SF_INFO()
        guard let file = sf_open(url.path, Int32(SFM_READ), &info) else {
            throw .unreadable(path: url.path, reason: String(cString: sf_strerror(nil)))
        }
        sf_close(file)
        return (Int(info.frames), Int(info.samplerate))
    }

    /// Decodes the audio file open at `descriptor` (which this closes), e.g. an object the store
    /// opened without following links; `label` names it in errors.
    package static func decode(descriptor: Int32, label: String) throws(AudioError) -> DecodedAudio {
        var info = SF_INFO()
        guard let file = sf_open_fd(descriptor, Int32(SFM_READ), &info, 1) else {
            close(descriptor)
            throw .unreadable(path: label, reason: String(cString: sf_strerror(nil)))
        }
        return try read(file, info: info, label: label)
    }

    /// The frames and sample rate of the audio file open at `descriptor` (which this closes).
    package static func frameCount(descriptor: Int32, label: String) throws(AudioError) -> (
        frames: Int, sampleRate: Int
    ) {
        var info = SF_INFO()
        guard let file = sf_open_fd(descriptor, Int32(SFM_READ), &info, 1) else {
            close(descriptor)
            throw .unreadable(path: label, reason: String(cString: sf_strerror(nil)))
        }
        sf_close(file)
        return (Int(info.frames), Int(info.samplerate))
    }

    /// Decodes audio bytes (an object from the store) to mono 16-bit PCM.
    package static func decode(_ bytes: [UInt8], label: String) throws(AudioError) -> DecodedAudio {
        let memory = MemoryFile()
        memory.bytes = bytes
        var io = virtualIO()
        var info = SF_INFO()
        let user = Unmanaged.passUnretained(memory).toOpaque()
        guard let file = sf_open_virtual(&io, Int32(SFM_READ), &info, user) else {
            throw .unreadable(path: label, reason: String(cString: sf_strerror(nil)))
        }
        return try withExtendedLifetime(memory) { () throws(AudioError) -> DecodedAudio in
            try read(file, info: info, label: label)
        }
    }

    private static func read(_ file: OpaquePointer, info: SF_INFO, label: String) throws(AudioError) -> DecodedAudio {
        defer { sf_close(file) }
        let channels = max(1, Int(info.channels))
        guard info.samplerate > 0 else { throw .unreadable(path: label, reason: "no sample rate") }
        var mono: [Int16] = []
        if info.frames > 0 && info.frames < Int64(Int32.max) { mono.reserveCapacity(Int(info.frames)) }
        var buffer = [Int16](repeating: 0, count: 65_536 * channels)
        while true {
            let frames = buffer.withUnsafeMutableBufferPointer { pointer in
                sf_readf_short(file, pointer.baseAddress, sf_count_t(65_536))
            }
            if frames <= 0 { break }
            if channels == 1 {
                mono.append(contentsOf: buffer[0..<Int(frames)])
            } else {
                for frame in 0..<Int(frames) {
                    var sum = 0
                    for channel in 0..<channels { sum += Int(buffer[frame * channels + channel]) }
                    mono.append(Int16(clamping: sum / channels))
                }
            }
        }
        if sf_error(file) != 0 { throw .unreadable(path: label, reason: String(cString: sf_strerror(file))) }
        guard !mono.isEmpty else { throw .unreadable(path: label, reason: "it holds no audio frames") }
        let exactLength = [SF_FORMAT_WAV, SF_FORMAT_FLAC, SF_FORMAT_OGG].contains(
            Int(info.format) & Int(SF_FORMAT_TYPEMASK))
        let missing = exactLength && info.frames > Int64(mono.count) ? Int(info.frames) - mono.count : 0
        return DecodedAudio(samples: mono, sampleRate: Int(info.samplerate), missingFrames: missing)
    }

    private static func encodingIO() -> SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { user in EncodingFile.from(user).size },
            seek: { offset, whence, user in EncodingFile.from(user).seek(offset, whence: whence) },
            read: { pointer, count, user in EncodingFile.from(user).read(into: pointer, count: count) },
            write: { pointer, count, user in EncodingFile.from(user).write(pointer, count: count) },
            tell: { user in EncodingFile.from(user).offset })
    }

    private static func virtualIO() -> SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { user in MemoryFile.from(user).length },
            seek: { offset, whence, user in MemoryFile.from(user).seek(offset, whence: whence) },
            read: { pointer, count, user in MemoryFile.from(user).read(into: pointer, count: count) },
            write: { pointer, count, user in MemoryFile.from(user).write(pointer, count: count) },
            tell: { user in MemoryFile.from(user).tell })
    }

    /// Mono 16-bit `format` at `sampleRate`, as libsndfile is asked to write it, once it has said it can.
    private static func writeInfo(format: AudioSettings.Format, sampleRate: Int, label: String) throws(AudioError)
        -> SF_INFO
    {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = Int32(majorFormat(format) | subtype(format))
        guard sf_format_check(&info) != 0 else {
            throw .encodingFailed(path: label, reason: "libsndfile cannot write \(format.rawValue) at \(sampleRate) Hz")
        }
        return info
    }

    private static func setQuality(_ file: OpaquePointer, format: AudioSettings.Format) {
        guard format == .ogg || format == .mp3 || format == .opus else { return }
        // A fixed quality keeps the encoded size predictable across builds.
        var quality = 0.6
        sf_command(file, Int32(SFC_SET_VBR_ENCODING_QUALITY), &quality, Int32(MemoryLayout<Double>.size))
    }

    private static func majorFormat(_ format: AudioSettings.Format) -> Int {
        switch format {
        case .wav: return Int(SF_FORMAT_WAV)
        case .flac: return Int(SF_FORMAT_FLAC)
        case .ogg, .opus: return Int(SF_FORMAT_OGG)
        case .mp3: return Int(SF_FORMAT_MPEG)
        }
    }

    private static func subtype(_ format: AudioSettings.Format) -> Int {
        switch format {
        case .wav, .flac: return Int(SF_FORMAT_PCM_16)
        case .ogg: return Int(SF_FORMAT_VORBIS)
        case .opus: return Int(SF_FORMAT_OPUS)
        case .mp3: return Int(SF_FORMAT_MPEG_LAYER_III)
        }
    }
}

/// A growable, seekable byte buffer that libsndfile writes into (it seeks back to fill in headers).
private final class MemoryFile {
    var bytes: [UInt8] = []
    var position = 0

    static func from(_ user: UnsafeMutableRawPointer?) -> MemoryFile {
        Unmanaged<MemoryFile>.fromOpaque(user!).takeUnretainedValue()
    }

    var length: sf_count_t { sf_count_t(bytes.count) }
    var tell: sf_count_t { sf_count_t(position) }

    func seek(_ offset: sf_count_t, whence: Int32) -> sf_count_t {
        let base: Int
        switch whence {
        case SEEK_CUR: base = position
        case SEEK_END: base = bytes.count
        default: base = 0
        }
        position = max(0, base + Int(offset))
        return sf_count_t(position)
    }

    func read(into pointer: UnsafeMutableRawPointer?, count: sf_count_t) -> sf_count_t {
        guard let pointer, position < bytes.count else { return 0 }
        let available = min(Int(count), bytes.count - position)
        bytes.withUnsafeBytes { source in
            pointer.copyMemory(from: source.baseAddress! + position, byteCount: available)
        }
        position += available
        return sf_count_t(available)
    }

    func write(_ pointer: UnsafeRawPointer?, count: sf_count_t) -> sf_count_t {
        guard let pointer, count > 0 else { return 0 }
        let count = Int(count)
        if position > bytes.count { bytes.append(contentsOf: repeatElement(0, count: position - bytes.count)) }
        let overlap = min(count, bytes.count - position)
        let source = UnsafeRawBufferPointer(start: pointer, count: count)
        if overlap > 0 {
            bytes.replaceSubrange(position..<(position + overlap), with: source[0..<overlap])
        }
        if overlap < count {
            bytes.append(contentsOf: source[overlap...])
        }
        position += count
        return sf_count_t(count)
    }
}
