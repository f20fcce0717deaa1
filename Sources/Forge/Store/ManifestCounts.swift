/// Item and object totals read from a manifest.
package struct ManifestCounts: Sendable, Equatable {
    package var chapters = 0
    package var done = 0
    package var spoken = 0
    package var failed = 0
    package var pending = 0
    /// Items whose audio came from a remote cache.
    package var downloaded = 0
    package var words = 0
    package var audioMs = 0
    package var objects = 0
    package var objectBytes = 0
    /// Audio objects (among ``objects``) whose bytes a build left in a remote cache, and their bytes.
    package var remoteObjects = 0
    package var remoteBytes = 0
    package var failures: [(id: String, error: String)] = []

    package var items: Int { done + spoken + failed + pending }

    package static func == (lhs: ManifestCounts, rhs: ManifestCounts) -> Bool {
        lhs.chapters == rhs.chapters && lhs.done == rhs.done && lhs.spoken == rhs.spoken && lhs.failed == rhs.failed
            && lhs.pending == rhs.pending && lhs.downloaded == rhs.downloaded && lhs.words == rhs.words
            && lhs.audioMs == rhs.audioMs
            && lhs.objects == rhs.objects && lhs.objectBytes == rhs.objectBytes
            && lhs.remoteObjects == rhs.remoteObjects && lhs.remoteBytes == rhs.remoteBytes
            && lhs.failures.map(\.id) == rhs.failures.map(\.id)
    }
}
