import Foundation

/// Chapters' finished objects (``ChapterObjectEntry``) through the remote cache: a shard uploads
/// what it finished, and a build takes what it would otherwise encode or master itself. Nothing
/// from the server is trusted: an entry that does not name the object asked for, or a blob whose
/// size or SHA-256 differs from the entry's, is refused (the caller makes the object itself).
package struct ChapterObjectCache: Sendable {
    package let remote: RemoteCache

    package init(remote: RemoteCache) {
        self.remote = remote
    }

    /// The object filed at `actionKey` as `role` `key`, and its bytes; nil on a miss. `chapter`
    /// names the chapter in errors. With `presenceOnly`, the blob is asked for (`HEAD`), not
    /// downloaded, and the bytes returned are empty.
    package func fetch(
        actionKey: String, role: String, key: String, chapter: String, presenceOnly: Bool = false
    ) async throws(RemoteCacheError) -> (ChapterObjectEntry, Data)? {
        guard let data = try await remote.get(.actionCache, actionKey, expectedBytes: nil) else { return nil }
        guard let entry = try? JSONDecoder().decode(ChapterObjectEntry.self, from: data),
            entry.fits(role: role, key: key)
        else {
            throw .malformedEntry(
                cache: remote.settings.name, item: chapter,
                reason: "its \(role) entry names another object or is not one")
        }
        if presenceOnly { return try await remote.contains(.contentAddressable, entry.sha256) ? (entry, Data()) : nil }
        let fetched: Data?
        do {
            fetched = try await remote.get(.contentAddressable, entry.sha256, expectedBytes: entry.bytes)
        } catch let .badAnswer(_, _, reason) {
            throw .blobSize(cache: remote.settings.name, item: chapter, role: role, detail: reason)
        }
        guard let blob = fetched else { return nil }
        let found = ContentHash.sha256Hex(blob)
        guard found == entry.sha256 else {
            throw .digestMismatch(
                cache: remote.settings.name, item: chapter, role: role, expected: entry.sha256, found: found)
        }
        return (entry, blob)
    }

    /// Uploads `data` (the object `object` of `role`), then its entry at `actionKey`. Returns the bytes sent.
    package func upload(_ object: StoredObject, data: Data, role: String, actionKey: String)
        async throws(RemoteCacheError) -> Int
    {
        let entry = ChapterObjectEntry(
            role: role, key: object.key, fileExtension: (object.path as NSString).pathExtension, sha256: object.sha256,
            bytes: object.bytes,
            durationMs: object.durationMs, sampleRate: object.sampleRate, frames: object.frames)
        return try await upload(entry, data: data, actionKey: actionKey)
    }

    /// Uploads `data`, then `entry` (which describes it) at `actionKey`. Returns the bytes sent.
    package func upload(_ entry: ChapterObjectEntry, data: Data, actionKey: String) async throws(RemoteCacheError)
        -> Int
    {
        try await remote.put(.contentAddressable, entry.sha256, data: data)
        let encoded = entry.encoded()
        try await remote.put(.actionCache, actionKey, data: encoded)
        return data.count + encoded.count
    }
}
