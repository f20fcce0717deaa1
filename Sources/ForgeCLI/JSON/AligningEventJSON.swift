/// An `aligning` line of `forge align narration --json`, one per window of the recording saved:
/// what a CI log or a wrapper can follow.
struct AligningEventJSON: Encodable {
    let event = "aligning"
    /// The share of the recording aligned so far, 0–1.
    var fraction: JSONNull<Double>

    init(fraction: Double) {
        self.fraction = JSONOutput.rounded(fraction, places: 3)
    }
}
