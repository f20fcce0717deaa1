/// What `forge fsck` checked and found.
package struct AuditReport: Sendable, Equatable {
    package var outputDirectory: String
    package var objectsChecked: Int
    package var bytesChecked: Int
    package var itemsChecked: Int
    package var problems: [AuditProblem]

    package var isClean: Bool { problems.isEmpty }
}
