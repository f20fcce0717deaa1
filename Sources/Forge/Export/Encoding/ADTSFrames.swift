/// AAC frames in ADTS, the self-delimiting form ffmpeg writes with `-f adts`: each frame starts
/// with a 7- or 9-byte header that gives the frame's length, and carries 1,024 samples.
enum ADTSFrames {
    /// The byte range of each frame of `bytes`, in order; nil if `bytes` is not a whole ADTS stream.
    static func frames(_ bytes: [UInt8]) -> [Range<Int>]? {
        var frames: [Range<Int>] = []
        frames.reserveCapacity(bytes.count / 150)
        var start = 0
        while start < bytes.count {
            guard bytes.count - start >= 7, bytes[start] == 0xFF, bytes[start + 1] & 0xF0 == 0xF0 else { return nil }
            let length =
                (Int(bytes[start + 3] & 0x03) << 11) | (Int(bytes[start + 4]) << 3) | (Int(bytes[start + 5]) >> 5)
            guard length >= 7, start + length <= bytes.count else { return nil }
            frames.append(start..<(start + length))
            start += length
        }
        return frames
    }

    /// The length of the ADTS header of the frame at `start`: 7 bytes, or 9 with a CRC.
    static func headerLength(_ bytes: [UInt8], at start: Int) -> Int {
        bytes[start + 1] & 0x01 == 1 ? 7 : 9
    }

    /// The MPEG-4 AudioSpecificConfig (object type, sampling frequency index, channels) the first
    /// frame's header describes, as an MP4 file's `esds` carries it.
    static func audioSpecificConfig(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 7, bytes[0] == 0xFF, bytes[1] & 0xF0 == 0xF0 else { return nil }
        let objectType = Int(bytes[2] >> 6) + 1
        let frequencyIndex = Int((bytes[2] >> 2) & 0x0F)
        let channels = Int((bytes[2] & 0x01) << 2) | Int(bytes[3] >> 6)
        let config = (objectType << 11) | (frequencyIndex << 7) | (channels << 3)
        return [UInt8(config >> 8), UInt8(config & 0xFF)]
    }
}
