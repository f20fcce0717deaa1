/// What `forge fsck` checked and found.
public struct AuditReport: Sendable, Equatable {
    public var outputDirectory: String
    public var objectsChecked: Int
    public var bytesChecked: Int
    public var itemsChecked: Int
    public var problems: [AuditProblem]

    public var isClean: Bool { problems.isEmpty }
}
