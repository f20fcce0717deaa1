/// Two readings of one text paired frame by frame: dynamic time warping of their cepstra, coarse
/// to fine. Each level searches a band of ``radius`` frames around the path the level above found
/// with half as many frames, so time and memory follow the readings' length times the band, not
/// the product of their lengths; the coarsest level (at most ``coarsest`` frames a side) is
/// searched whole.
///
/// Forge reads the book itself (a synthesized reading whose every word's time it knows); warping
/// that reading onto a narrator's places each word within a fraction of a second without an
/// acoustic model, and the warping's cost along the path says where the two part.
package struct ReadingWarp: Sendable {
    /// The frames of one reading: ``dimension`` values each, row after row.
    package struct Frames: Sendable, Equatable {
        /// Frames a second of a reading's audio.
        package static let perSecond = 100
        package var values: [Float]
        package var dimension: Int
        package var count: Int { dimension == 0 ? 0 : values.count / dimension }

        package init(values: [Float], dimension: Int) {
            self.values = values
            self.dimension = dimension
        }

        /// Sphinx's cepstra (13 a frame) without the energy, each coefficient normalized to mean 0
        /// and variance 1 over the reading: two voices and two microphones compared by the shape
        /// of their spectra, not their loudness or tilt.
        package init(cepstra: [Float], coefficients: Int) {
            let count = cepstra.count / coefficients
            let dimension = coefficients - 1
            var values = [Float](repeating: 0, count: count * dimension)
            for coefficient in 1..<coefficients {
                var sum = 0.0
                var squares = 0.0
                for frame in 0..<count {
                    let value = Double(cepstra[frame * coefficients + coefficient])
                    sum += value
                    squares += value * value
                }
                let mean = count > 0 ? sum / Double(count) : 0
                let deviation = count > 0 ? (squares / Double(count) - mean * mean).squareRoot() : 1
                let scale = deviation > 1e-6 ? 1 / deviation : 1
                for frame in 0..<count {
                    values[frame * dimension + coefficient - 1] = Float(
                        (Double(cepstra[frame * coefficients + coefficient]) - mean) * scale)
                }
            }
            self.init(values: values, dimension: dimension)
        }

        /// Every two frames averaged into one (the last alone when the count is odd).
        func halved() -> Frames {
            let halves = (count + 1) / 2
            var values = [Float](repeating: 0, count: halves * dimension)
            for half in 0..<halves {
                let first = 2 * half
                let pair = first + 1 < count ? 2 : 1
                for index in 0..<dimension {
                    var sum: Float = 0
                    for frame in first..<(first + pair) { sum += self.values[frame * dimension + index] }
                    values[half * dimension + index] = sum / Float(pair)
                }
            }
            return Frames(values: values, dimension: dimension)
        }
    }

    /// The path through one reference frame: the recording's frames paired with it.
    package struct Row: Sendable, Equatable {
        package var first: Int
        package var last: Int
        /// The distance between the reference frame and the recording's first frame paired with it.
        package var cost: Float
    }

    /// Frames of the band on each side of the path projected from the level above.
    package var radius = 16
    /// A level with at most this many frames a side is searched whole.
    package var coarsest = 256

    package init(radius: Int = 16, coarsest: Int = 256) {
        self.radius = radius
        self.coarsest = coarsest
    }

    /// For each frame of `reference`, the frames of `recording` the warping pairs it with. Both
    /// readings must have frames; the path runs from both first frames to both last ones.
    package func path(_ reference: Frames, _ recording: Frames) -> [Row] {
        precondition(reference.count > 0 && recording.count > 0 && reference.dimension == recording.dimension)
        if max(reference.count, recording.count) <= coarsest || min(reference.count, recording.count) < 2 {
            let band = [ClosedRange<Int>](repeating: 0...(recording.count - 1), count: reference.count)
            return Self.warp(reference, recording, band: band)
        }
        let above = path(reference.halved(), recording.halved())
        return Self.warp(
            reference, recording, band: band(below: above, rows: reference.count, columns: recording.count))
    }

    /// ``path(_:_:)`` with the band of the level `factor` times coarser taken from `guide` (a path
    /// found there, over the same stretch) instead of searched.
    func path(_ reference: Frames, _ recording: Frames, guide: [Row], factor: Int) -> [Row] {
        if factor <= 1 {
            return Self.warp(
                reference, recording,
                band: band(below: guide, rows: reference.count, columns: recording.count, scale: 1))
        }
        let above = path(reference.halved(), recording.halved(), guide: guide, factor: factor / 2)
        return Self.warp(
            reference, recording, band: band(below: above, rows: reference.count, columns: recording.count))
    }

    /// The band of a level: the path above, each of its cells `scale` by `scale` here, widened by
    /// ``radius`` frames in time on both readings.
    func band(below above: [Row], rows: Int, columns: Int, scale: Int = 2) -> [ClosedRange<Int>] {
        var low = [Int](repeating: columns - 1, count: rows)
        var high = [Int](repeating: 0, count: rows)
        for (index, row) in above.enumerated() {
            for fine in (scale * index)..<min(rows, scale * index + scale) {
                low[fine] = min(low[fine], min(columns - 1, scale * row.first))
                high[fine] = max(high[fine], min(columns - 1, scale * row.last + scale - 1))
            }
        }
        var band: [ClosedRange<Int>] = []
        band.reserveCapacity(rows)
        for index in 0..<rows {
            var lower = columns - 1
            var upper = 0
            for neighbour in max(0, index - radius)...min(rows - 1, index + radius) {
                lower = min(lower, low[neighbour])
                upper = max(upper, high[neighbour])
            }
            band.append(max(0, lower - radius)...min(columns - 1, upper + radius))
        }
        return band
    }

    /// The cheapest path inside `band` (a range of the recording's frames for each reference
    /// frame, neither end ever moving back): each step goes on in one reading or both, and costs
    /// the Euclidean distance of the frames it reaches.
    static func warp(_ reference: Frames, _ recording: Frames, band: [ClosedRange<Int>]) -> [Row] {
        let dimension = reference.dimension
        var starts: [Int] = []
        starts.reserveCapacity(band.count + 1)
        var cells = 0
        for range in band {
            starts.append(cells)
            cells += range.count
        }
        // 0: from the diagonal, 1: from the frame above (the reference moved on), 2: from the left,
        // 3: the path's first cell. Both ends are fixed: audio before or after the reading (an
        // intro, closing music) is held by the first or last frame, a long run of one row that
        // says so; a cost-free start would let a coarse level, where frames averaged look alike,
        // squeeze the whole reading into a few frames.
        var steps = [UInt8](repeating: 0, count: cells)
        var previous: [Double] = []
        var current: [Double] = []
        reference.values.withUnsafeBufferPointer { a in
            recording.values.withUnsafeBufferPointer { b in
                for (row, range) in band.enumerated() {
                    current.removeAll(keepingCapacity: true)
                    current.append(contentsOf: repeatElement(.infinity, count: range.count))
                    let above = row > 0 ? Range(band[row - 1]) : 0..<0
                    for column in range {
                        let cost = Double(Self.distance(a, row, b, column, dimension: dimension))
                        if row == 0 && column == 0 {
                            current[0] = cost
                            steps[0] = 3
                            continue
                        }
                        var best = Double.infinity
                        var step: UInt8 = 0
                        if above.contains(column - 1), previous[column - 1 - above.lowerBound] < best {
                            best = previous[column - 1 - above.lowerBound]
                            step = 0
                        }
                        if above.contains(column), previous[column - above.lowerBound] < best {
                            best = previous[column - above.lowerBound]
                            step = 1
                        }
                        if column > range.lowerBound, current[column - 1 - range.lowerBound] < best {
                            best = current[column - 1 - range.lowerBound]
                            step = 2
                        }
                        current[column - range.lowerBound] = best + cost
                        steps[starts[row] + column - range.lowerBound] = step
                    }
                    swap(&previous, &current)
                }
            }
        }
        return backtrack(
            steps: steps, starts: starts, band: band, end: band[band.count - 1].upperBound, reference, recording)
    }

    private static func backtrack(
        steps: [UInt8], starts: [Int], band: [ClosedRange<Int>], end: Int, _ reference: Frames, _ recording: Frames
    ) -> [Row] {
        let dimension = reference.dimension
        func distance(_ row: Int, _ column: Int) -> Float {
            reference.values.withUnsafeBufferPointer { a in
                recording.values.withUnsafeBufferPointer { b in Self.distance(a, row, b, column, dimension: dimension) }
            }
        }
        var rows = [Row](repeating: Row(first: 0, last: 0, cost: 0), count: band.count)
        var row = band.count - 1
        var column = end
        rows[row] = Row(first: column, last: column, cost: 0)
        while true {
            let step = steps[starts[row] + column - band[row].lowerBound]
            if step == 3 { break }
            if step != 2 { rows[row].cost = distance(row, rows[row].first) }
            switch step {
            case 0:
                row -= 1
                column -= 1
                rows[row] = Row(first: column, last: column, cost: 0)
            case 1:
                row -= 1
                rows[row] = Row(first: column, last: column, cost: 0)
            default:
                column -= 1
                rows[row].first = column
            }
        }
        rows[0].cost = distance(0, rows[0].first)
        return rows
    }

    /// The Euclidean distance between frame `row` of `a` and frame `column` of `b`.
    @inline(__always)
    private static func distance(
        _ a: UnsafeBufferPointer<Float>, _ row: Int, _ b: UnsafeBufferPointer<Float>, _ column: Int, dimension: Int
    ) -> Float {
        var sum: Float = 0
        for index in 0..<dimension {
            let difference = a[row * dimension + index] - b[column * dimension + index]
            sum += difference * difference
        }
        return sum.squareRoot()
    }
}
