/// What `forge fsck` checked and found.
package struct AuditReport: Sendable, Equatable {
    package var outputDirectory: String
    package var objectsChecked: Int
    package var bytesChecked: Int
    package var itemsChecked: Int
    package var problems: [AuditProblem]
    /// Audio objects recorded as left in a remote cache (not in the store, not a problem), and their bytes.
    package var remoteObjects = 0
    package var remoteBytes = 0

    package var isClean: Bool { problems.isEmpty }
}
