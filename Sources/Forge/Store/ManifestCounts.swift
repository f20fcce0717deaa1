/// Item and object totals read from a manifest.
public struct ManifestCounts: Sendable, Equatable {
    public var chapters = 0
    public var done = 0
    public var spoken = 0
    public var failed = 0
    public var pending = 0
    /// Items whose audio came from a remote cache.
    public var downloaded = 0
    public var words = 0
    public var audioMs = 0
    public var objects = 0
    public var objectBytes = 0
    public var failures: [(id: String, error: String)] = []

    public var items: Int { done + spoken + failed + pending }

    public static func == (lhs: ManifestCounts, rhs: ManifestCounts) -> Bool {
        lhs.chapters == rhs.chapters && lhs.done == rhs.done && lhs.spoken == rhs.spoken && lhs.failed == rhs.failed
            && lhs.pending == rhs.pending && lhs.downloaded == rhs.downloaded && lhs.words == rhs.words && lhs.audioMs == rhs.audioMs
            && lhs.objects == rhs.objects && lhs.objectBytes == rhs.objectBytes
            && lhs.failures.map(\.id) == rhs.failures.map(\.id)
    }
}
