import Foundation
import Synchronization
import Testing

@testable import Forge

/// The queue that encodes an EPUB's chapter audio on every core: real threads writing real files.
@Suite("Chapter encoding on several threads")
struct EncodingQueueTests {
    /// Writes `index` as text into the file, slower for early indexes so that later ones finish first.
    private static func writeIndex(_ index: Int, _ descriptor: Int32) throws {
        usleep(useconds_t((8 - index % 8) * 3_000))
        let bytes = Array("file \(index)".utf8)
        _ = write(descriptor, bytes, bytes.count)
        close(descriptor)
    }

    private static func scratchFiles(in folder: TemporaryDirectory) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []).sorted()
    }

    @Test func filesAreTakenInOrderWhileSeveralEncodeAndNoneIsLeftBehind() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url
        let running = Mutex((now: 0, most: 0))
        var taken: [String] = []
        try EncodingQueue.run(
            count: 24, jobs: 3, ahead: 6, cancellation: nil, scratch: { url.appendingPathComponent(".\($0).tmp") },
            encode: { index, descriptor, _ in
                running.withLock {
                    $0.now += 1
                    $0.most = max($0.most, $0.now)
                }
                defer { running.withLock { $0.now -= 1 } }
                try Self.writeIndex(index, descriptor)
            },
            take: { index in
                let waiting = Self.scratchFiles(in: folder).count
                #expect(waiting <= 6, "\(waiting) files wait on disk with ahead = 6")
                taken.append(try String(contentsOf: url.appendingPathComponent(".\(index).tmp"), encoding: .utf8))
            })
        #expect(taken == (0..<24).map { "file \($0)" })
        #expect(running.withLock { $0.most } > 1, "the files were encoded one at a time")
        #expect(Self.scratchFiles(in: folder).isEmpty)
    }

    @Test func aFailedFileIsReportedAndStopsTheOthersPromptly() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url
        let started = Date()
        #expect {
            try EncodingQueue.run(
                count: 10, jobs: 2, ahead: 4, cancellation: nil, scratch: { url.appendingPathComponent(".\($0).tmp") },
                encode: { index, descriptor, stop in
                    defer { close(descriptor) }
                    if index == 1 { throw ExportError.missingAudio(itemID: "item-1", path: "objects/1.wav") }
                    // A long chapter: it runs until it is told to stop (or 5 s, should stopping fail).
                    let end = Date().addingTimeInterval(5)
                    while !stop.isCancelled, Date() < end { usleep(1_000) }
                    throw ExportError.cancelled(written: 0)
                },
                take: { _ in Issue.record("a file was taken although every one failed") })
        } throws: { error in
            guard case ExportError.missingAudio(let itemID, _) = error else { return false }
            return itemID == "item-1"
        }
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(Self.scratchFiles(in: folder).isEmpty)
    }

    @Test func aStopReachesTheEncodersAndIsReportedAsAStop() throws {
        let folder = try TemporaryDirectory()
        let url = folder.url
        let cancellation = CancellationFlag()
        let encoders = Mutex(0)
        let cancelledAt = Mutex(Date.distantFuture)
        Thread {
            usleep(200_000)
            cancelledAt.withLock { $0 = Date() }
            cancellation.cancel()
        }.start()
        #expect {
            try EncodingQueue.run(
                count: 10, jobs: 2, ahead: 4, cancellation: cancellation,
                scratch: { url.appendingPathComponent(".\($0).tmp") },
                encode: { _, descriptor, stop in
                    defer { close(descriptor) }
                    encoders.withLock { $0 += 1 }
                    let end = Date().addingTimeInterval(5)
                    while !stop.isCancelled, Date() < end { usleep(1_000) }
                    throw ExportError.cancelled(written: 0)
                },
                take: { _ in })
        } throws: { error in
            guard case ExportError.cancelled = error else { return false }
            return true
        }
        let stopTook = Date().timeIntervalSince(cancelledAt.withLock { $0 })
        #expect(stopTook < 1, "the stop took \(stopTook) s")
        #expect(encoders.withLock { $0 } == 2, "a file was started after the stop")
        #expect(Self.scratchFiles(in: folder).isEmpty)
    }
}
