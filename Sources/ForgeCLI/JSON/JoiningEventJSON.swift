/// A `joining` line of `forge sync --json` and `forge align narration --json`, one per file of a
/// recording of several joined into one.
struct JoiningEventJSON: Encodable {
    let event = "joining"
    /// The files joined so far.
    var joined: Int
    /// The recording's files.
    var files: Int
}
