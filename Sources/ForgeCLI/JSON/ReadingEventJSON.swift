/// A `reading` line of `forge sync --json` and `forge align narration --json`, one per hundredth
/// of the recording read for the recognizer.
struct ReadingEventJSON: Encodable {
    let event = "reading"
    /// The share of the recording read so far, 0–1.
    var fraction: JSONNull<Double>

    init(fraction: Double) {
        self.fraction = JSONOutput.rounded(fraction, places: 3)
    }
}
