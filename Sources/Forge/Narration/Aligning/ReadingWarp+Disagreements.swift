extension ReadingWarp {
    /// A stretch where the two readings part: what the acoustic model is asked about.
    package enum Disagreement: Sendable, Equatable {
        /// Recording frames the path spends on one reference frame: audio the reference has no
        /// words for (an intro, a retake, music).
        case audioWithoutText(recording: ClosedRange<Int>, atReference: Int)
        /// Reference frames the path passes over in hardly any of the recording: text the
        /// recording does not say (a skipped paragraph, another edition).
        case textWithoutAudio(reference: ClosedRange<Int>, atRecording: Int)
    }

    /// The stretches of `path` of at least `frames` frames where one reading moves on and the
    /// other (nearly) holds still: the recording by less than one frame in `ratio` of the
    /// reference's, or the reference by none at all.
    package static func disagreements(in path: [Row], frames: Int = 100, ratio: Int = 8) -> [Disagreement] {
        var found: [Disagreement] = []
        var row = 0
        while row < path.count {
            if path[row].last - path[row].first + 1 >= frames {
                found.append(.audioWithoutText(recording: path[row].first...path[row].last, atReference: row))
            }
            var end = row
            while end + 1 < path.count, (path[end + 1].first - path[row].last) * ratio <= end + 1 - row { end += 1 }
            // The rows at its end where the recording already moves on again are not part of it.
            while end > row, path[end].first > path[end - 1].first { end -= 1 }
            if end - row + 1 >= frames {
                found.append(.textWithoutAudio(reference: row...end, atRecording: path[row].last))
                row = end + 1
            } else {
                row += 1
            }
        }
        return found
    }
}
