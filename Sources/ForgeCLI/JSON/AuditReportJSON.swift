import Forge

/// `forge fsck --json`: what the store audit checked and the problems it found (or repaired).
struct AuditReportJSON: Encodable {
    var output: String
    var objectsChecked: Int
    var bytesChecked: Int
    var itemsChecked: Int
    /// Audio objects in the remote cache only (not checked, not a problem), and their bytes.
    var remoteObjects: Int
    var remoteBytes: Int
    var problems: [String]
    var repaired: Bool
    var clean: Bool
    var elapsedSeconds: JSONNull<Double>

    init(_ report: AuditReport, repaired: Bool, elapsedSeconds: Double) {
        output = report.outputDirectory
        objectsChecked = report.objectsChecked
        bytesChecked = report.bytesChecked
        itemsChecked = report.itemsChecked
        remoteObjects = report.remoteObjects
        remoteBytes = report.remoteBytes
        problems = report.problems.map(\.description)
        self.repaired = repaired
        clean = report.isClean
        self.elapsedSeconds = JSONOutput.rounded(elapsedSeconds, places: 3)
    }
}
