/// What the verify stage did: its report, and the chunks it moved through the remote cache.
struct VerificationOutcome: Sendable {
    var report: VerifyReport
    var traffic = CacheTraffic()
    /// Items synthesized again because the audio a build left in the remote cache could not be fetched.
    var synthesizedItems = 0
}
