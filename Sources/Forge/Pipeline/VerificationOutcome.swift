/// What the verify stage did: its report, and the chunks it moved through the remote cache.
struct VerificationOutcome: Sendable {
    var report: VerifyReport
    var traffic = CacheTraffic()
}
