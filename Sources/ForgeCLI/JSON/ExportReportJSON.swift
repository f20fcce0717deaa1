import Forge

/// `forge export --json`: the files written (or found up to date) and, with `--pack`, the pack.
struct ExportReportJSON: Encodable {
    var output: String
    var chapters: Int
    var durationMs: Int
    /// Paths relative to the output directory.
    var files: [String]
    var elapsedSeconds: JSONNull<Double>
    var upToDate: Bool
    var pack: String?
    var packItems: Int?

    init(_ report: ExportReport, output: String, elapsedSeconds: Double, pack: String?, packItems: Int?) {
        self.output = output
        chapters = report.chapters
        durationMs = report.durationMs
        files = report.files
        self.elapsedSeconds = JSONOutput.rounded(elapsedSeconds, places: 3)
        upToDate = report.upToDate
        if let pack, let packItems {
            self.pack = pack
            self.packItems = packItems
        }
    }
}
