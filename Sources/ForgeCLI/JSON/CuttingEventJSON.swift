/// A `cutting` line of `forge sync --json` and `forge align narration --json`, one per hundredth
/// of the items whose piece of the recording is cut and stored.
struct CuttingEventJSON: Encodable {
    let event = "cutting"
    /// The share of the items done so far, 0–1.
    var fraction: JSONNull<Double>

    init(fraction: Double) {
        self.fraction = JSONOutput.rounded(fraction, places: 3)
    }
}
