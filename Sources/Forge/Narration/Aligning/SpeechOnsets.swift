import Foundation

/// Moves word starts next to a pause onto the speech onset, by the audio's energy.
///
/// The recognizer's frames are 10 ms and its silence model is coarse: after a pause it often
/// starts a word a few frames inside the silence (a breath, room noise), and now and then a
/// few hundred milliseconds in. A reader highlighting words then lights a word before it is
/// said. Energy finds the onset to a frame: a word whose first frames are as quiet as the
/// pause starts where the level rises; a word that starts inside speech after a gap starts
/// where that speech began.
struct SpeechOnsets {
    /// Frame energies of the audio, in dB, 10 ms per frame.
    private let energy: [Double]
    /// Frames at or above this are sound, below it the pause's level.
    private let threshold: Double

    static let frameMs = 10
    /// A word start is moved back into sound before it only as far as this: further back, the
    /// sound is the previous word's, which the recognizer ended early.
    static let longestBackMoveMs = 150

    /// Energies of `samples` (16 kHz); the pause level is the quiet end of the window's
    /// frames and the speech level its loud end.
    init(samples: ArraySlice<Int16>) {
        let perFrame = PocketSphinxDecoder.sampleRate * Self.frameMs / 1000
        var energy: [Double] = []
        energy.reserveCapacity(samples.count / perFrame + 1)
        var index = samples.startIndex
        while index < samples.endIndex {
            let end = min(samples.endIndex, index + perFrame)
            var sum = 0.0
            for sample in samples[index..<end] { sum += Double(sample) * Double(sample) }
            energy.append(10 * log10(sum / Double(end - index) + 1))
            index = end
        }
        self.energy = energy
        let sorted = energy.sorted()
        // Audiobook narration is mostly speech: pauses are a few percent of a window.
        let floor = sorted.isEmpty ? 0 : sorted[sorted.count / 20]
        let level = sorted.isEmpty ? 0 : sorted[sorted.count * 9 / 10]
        // Unvoiced onsets (s, f, h) are far quieter than vowels: the line sits near the floor,
        // but above the noise's own ripple.
        threshold = floor + max(6, 0.15 * (level - floor))
    }

    /// `placements` (in ms from the start of the samples, in order) with each start that
    /// follows a pause (or the window's start) moved to the speech onset.
    func snapped(_ placements: [WordPlacement?]) -> [WordPlacement?] {
        guard !energy.isEmpty else { return placements }
        var result = placements
        var previousEnd = 0
        for (index, placement) in placements.enumerated() {
            guard var placement else { continue }
            defer { previousEnd = max(previousEnd, result[index]?.endMs ?? previousEnd) }
            let first = placement.startMs / Self.frameMs
            let last = (placement.endMs - 1) / Self.frameMs
            guard first < energy.count, first < last else { continue }
            if !isSound(first) {
                // The word starts in a pause: it begins where the first three frames of sound in
                // a row begin, if that is inside the word (a word the recognizer stretched over
                // the whole pause moves as far).
                let limit = min(last - 2, energy.count - 3)
                guard first + 1 <= limit else { continue }
                if let onset = (first + 1...limit).first(where: startsSound) {
                    placement.startMs = onset * Self.frameMs
                }
            } else if first > 0 && placement.startMs > previousEnd && !isSound(max(0, previousEnd / Self.frameMs)) {
                // The word starts in sound that began in the pause before it: move back to
                // where the sound began, if no further than the previous word's end.
                let earliest = max(previousEnd / Self.frameMs, first - Self.longestBackMoveMs / Self.frameMs)
                var onset = first
                while onset - 1 >= earliest && isSound(onset - 1) { onset -= 1 }
                if onset - 1 >= earliest { placement.startMs = onset * Self.frameMs }
            }
            result[index] = placement
        }
        return result
    }

    /// The frames where sound begins (three frames of it in a row) after at least `pauseMs` of
    /// frames as quiet as the pauses, in order; never the first frame.
    func onsets(afterPausesOf pauseMs: Int) -> [Int] {
        let pauseFrames = max(1, pauseMs / Self.frameMs)
        var onsets: [Int] = []
        var quiet = 0
        for frame in energy.indices {
            if !isSound(frame) {
                quiet += 1
            } else {
                if quiet >= pauseFrames, startsSound(frame) { onsets.append(frame) }
                quiet = 0
            }
        }
        return onsets
    }

    /// Whether sound begins at `frame`: it and the two frames after it are louder than the pauses
    /// (one loud frame is a click).
    func startsSound(_ frame: Int) -> Bool {
        isSound(frame) && isSound(frame + 1) && isSound(frame + 2)
    }

    /// Whether the 10 ms frame `frame` is louder than the pauses.
    func isSound(_ frame: Int) -> Bool {
        frame >= 0 && frame < energy.count && energy[frame] >= threshold
    }
}
