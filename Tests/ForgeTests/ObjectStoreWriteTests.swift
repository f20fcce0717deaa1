import Foundation
import Testing

@testable import Forge

/// Objects reach the disk byte for byte whichever way they are written: large ones with direct
/// I/O, encoded audio straight from its own (page-aligned) memory, anything else through a buffer.
@Suite struct ObjectStoreWriteTests {
    @Test func encodedAudioIsWrittenFromItsOwnMemoryAndOtherBytesThroughTheBuffer() throws {
        let directory = try TemporaryDirectory()
        let store = ObjectStore(root: directory.url)
        try store.prepare()
        // About 600 KB of audio: over the direct-write threshold, and not a whole number of pages.
        let samples = (0..<300_123).map { Int16(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 9) / 3 }
        let encoded = try SoundFile.encode(samples, sampleRate: 22_050, format: .wav)
        #expect(
            encoded.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) % 4096 } == 0,
            "encoded audio is not page-aligned")
        #expect(encoded.count % 4096 != 0)

        let audio = try store.store(
            key: String(repeating: "a1", count: 32), fileExtension: "wav", role: .audio, mimeType: "audio/wav",
            data: encoded)
        #expect(try store.read(relativePath: audio.path) == encoded)
        #expect(audio.sha256 == ContentHash.sha256Hex(encoded))
        #expect(!store.copiedThroughDirectWriteBuffer, "aligned audio was copied before it was written")

        // The same bytes one byte off alignment go through the buffer (on a file system with direct I/O).
        var shifted = Data([0])
        shifted.append(encoded)
        let unaligned = shifted.dropFirst()
        let copy = try store.store(
            key: String(repeating: "b2", count: 32), fileExtension: "wav", role: .audio, mimeType: "audio/wav",
            data: unaligned)
        #expect(try store.read(relativePath: copy.path) == encoded)
        #expect(copy.sha256 == audio.sha256)
        let directIO = open(directory.url.path + "/probe", O_WRONLY | O_CREAT | DirectWriteBuffer.openFlag, 0o644)
        if directIO >= 0 {
            close(directIO)
            #expect(
                store.copiedThroughDirectWriteBuffer,
                "unaligned bytes did not use the buffer: the check above proves nothing")
        }
        #expect(try SoundFile.decode(Array(store.read(relativePath: audio.path)), label: "audio").samples == samples)
    }
}
