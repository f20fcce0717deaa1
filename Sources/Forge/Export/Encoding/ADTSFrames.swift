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
            let length = (Int(bytes[start + 3] & 0x03) << 11) | (Int(bytes[start + 4]) << 3) | (Int(bytes[start + 5]) >> 5)
            guard length >= 7, start + length <= bytes.count else { return nil }
            frames.append(start..<(start + length))
            start += length
        }
        return frames
    }

    /// The length of the first frame of `bytes`, or nil if they do not begin with an ADTS header.
    static func firstFrameLength(_ bytes: some RandomAccessCollection<UInt8>) -> Int? {
        let header = Array(bytes.prefix(7))
        guard header.count == 7, header[0] == 0xFF, header[1] & 0xF0 == 0xF0 else { return nil }
        let length = (Int(header[3] & 0x03) << 11) | (Int(header[4]) << 3) | (Int(header[5]) >> 5)
        return length >= 7 && length <= bytes.count ? length : nil
    }
}
