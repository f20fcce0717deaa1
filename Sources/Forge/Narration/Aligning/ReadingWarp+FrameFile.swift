import Foundation
import Synchronization

extension ReadingWarp {
    /// The path for two readings of any length, handed to `visit` a block of `blockFrames`
    /// reference frames at a time, in order: their coarse frames (the coarser reading's factor for
    /// both) are warped as ``path(_:_:)`` warps, then each block is refined down to single frames inside that path's band, read from
    /// the files with `overlap` frames on each side whose rows are dropped (a block's ends are
    /// pinned where the coarse path puts them), `jobs` blocks at once. Memory follows the coarse
    /// frames and `jobs` blocks.
    package func path(
        _ reference: FrameFile, _ recording: FrameFile, blockFrames: Int = 32_768, overlap: Int = 2_048,
        jobs: Int = 2, visit: (_ firstRow: Int, _ rows: [Row]) throws -> Void
    ) throws {
        let factor = max(reference.factor, recording.factor)
        precondition(reference.factor.nonzeroBitCount == 1 && recording.factor.nonzeroBitCount == 1)
        precondition(blockFrames % factor == 0 && overlap % factor == 0)
        let coarse = path(
            Self.halved(reference.coarse, times: (factor / reference.factor).trailingZeroBitCount),
            Self.halved(recording.coarse, times: (factor / recording.factor).trailingZeroBitCount))
        let blocks = stride(from: 0, to: reference.count, by: blockFrames).map {
            $0..<min(reference.count, $0 + blockFrames)
        }
        // Blocks are refined `jobs` at a time, each independent of the others once the coarse path
        // is known, and handed on in order.
        var next = 0
        while next < blocks.count {
            let batch = Array(blocks[next..<min(blocks.count, next + max(1, jobs))])
            let results = Mutex([Result<[Row], any Error>?](repeating: nil, count: batch.count))
            DispatchQueue.concurrentPerform(iterations: batch.count) { slot in
                let result = Result {
                    try refine(batch[slot], coarse: coarse, factor: factor, reference, recording, overlap: overlap)
                }
                results.withLock { $0[slot] = result }
            }
            for (slot, result) in results.withLock({ $0 }).enumerated() {
                try visit(batch[slot].lowerBound, try result!.get())
            }
            next += batch.count
        }
    }

    /// One block's rows: its frames (and `overlap` more on each side) warped inside the band of
    /// the coarse path, down to single frames.
    private func refine(
        _ block: Range<Int>, coarse: [Row], factor: Int, _ reference: FrameFile, _ recording: FrameFile, overlap: Int
    ) throws -> [Row] {
        let from = max(0, block.lowerBound - overlap)
        let to = min(reference.count, block.upperBound + overlap)
        let coarseRows = (from / factor)..<((to + factor - 1) / factor)
        let coarseFrom = coarse[coarseRows.lowerBound].first
        let columnFrom = coarseFrom * factor
        let columnTo = min(recording.count, (coarse[coarseRows.upperBound - 1].last + 1) * factor)
        let lastColumn = (columnTo - columnFrom + factor - 1) / factor - 1
        let guide = coarse[coarseRows].map {
            Row(
                first: min(lastColumn, $0.first - coarseFrom), last: min(lastColumn, $0.last - coarseFrom),
                cost: $0.cost)
        }
        let rows = path(
            try reference.frames(from..<to), try recording.frames(columnFrom..<columnTo), guide: guide, factor: factor)
        return rows[(block.lowerBound - from)..<(block.upperBound - from)].map {
            Row(first: $0.first + columnFrom, last: $0.last + columnFrom, cost: $0.cost)
        }
    }

    /// `frames` with every two averaged into one, `times` times over.
    static func halved(_ frames: Frames, times: Int) -> Frames {
        (0..<times).reduce(frames) { halved, _ in halved.halved() }
    }
}
