extension ReadingWarp {
    /// The path for two readings of any length, handed to `visit` a block of `blockFrames`
    /// reference frames at a time, in order: their coarse frames are warped as ``path(_:_:)``
    /// warps, then each block is refined down to single frames inside that path's band, read from
    /// the files with `overlap` frames on each side whose rows are dropped (a block's ends are
    /// pinned where the coarse path puts them). Memory follows the coarse frames and one block.
    package func path(
        _ reference: FrameFile, _ recording: FrameFile, blockFrames: Int = 32_768, overlap: Int = 2_048,
        visit: (_ firstRow: Int, _ rows: [Row]) throws -> Void
    ) throws {
        let factor = reference.factor
        precondition(recording.factor == factor && factor.nonzeroBitCount == 1)
        precondition(blockFrames % factor == 0 && overlap % factor == 0)
        let coarse = path(reference.coarse, recording.coarse)
        var start = 0
        while start < reference.count {
            let end = min(reference.count, start + blockFrames)
            let from = max(0, start - overlap)
            let to = min(reference.count, end + overlap)
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
                try reference.frames(from..<to), try recording.frames(columnFrom..<columnTo), guide: guide,
                factor: factor)
            try visit(
                start,
                rows[(start - from)..<(end - from)].map {
                    Row(first: $0.first + columnFrom, last: $0.last + columnFrom, cost: $0.cost)
                })
            start = end
        }
    }
}
