/// What a running build reports, for a live progress line or JSON Lines in CI.
package enum ProgressEvent: Sendable, Equatable {
    /// The output directory is locked and a build row started.
    case started(buildID: Int64, outputDirectory: String)
    /// The split stage finished.
    case split(chapters: Int, items: Int, words: Int, changedItems: Int)
    /// What the speak and align stages will do.
    case planned(upToDate: Int, toSynthesize: Int, toReuse: Int, toAlign: Int)
    /// The remote cache was asked for the items to make: `found` of `looked` came from it, `bytes` downloaded.
    case remoteCache(looked: Int, found: Int, bytes: Int)
    /// Items' objects and entries were uploaded to the remote cache.
    case uploaded(items: Int, bytes: Int)
    /// Audio left in the remote cache was fetched because `phase` ("export", "verify") needed its samples.
    case fetchedAudio(items: Int, bytes: Int, phase: String)
    /// One item finished (or failed).
    case item(ItemProgress)
    /// Finished items were committed to the manifest.
    case saved(committedItems: Int)
    /// A phase after synthesis began: "export" (the recipe's exports), "verify" or "check-reproducible".
    case phase(String)
    /// The recipe's exports got on: a phase of the export (`encode`, `audio`, `captions`, `epub`,
    /// `m4b`, `acx`) finished one more of its chapters.
    case exporting(ExportProgress)
    /// A chunk was transcribed and scored.
    case verified(ChunkReport)
    /// A stop was requested; items in hand are finishing.
    case cancelling
    /// Something a person should know that does not stop the build (an uncast character, a fallback
    /// voice used, a rejected cache entry), with the file or item it is about.
    case diagnostic(Diagnostic)
}
