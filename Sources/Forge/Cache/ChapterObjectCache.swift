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

    /// Where a fetched blob goes (``fetch(actionKey:role:key:chapter:into:)``).
    package enum Destination: Sendable {
        /// Asked for (`HEAD`), not downloaded.
        case presenceOnly
        /// Written into this new file as it arrives, never held whole in memory.
        case file(URL)
    }

    /// The object filed at `actionKey` as `role` `key`, its blob checked and put where `destination`
    /// says; nil on a miss. `chapter` names the chapter in errors. A refused blob's file is removed.
    package func fetch(
        actionKey: String, role: String, key: String, chapter: String, into destination: Destination
    ) async throws(RemoteCacheError) -> ChapterObjectEntry? {
        guard let data = try await remote.get(.actionCache, actionKey, expectedBytes: nil) else { return nil }
        guard let entry = try? JSONDecoder().decode(ChapterObjectEntry.self, from: data),
            entry.fits(role: role, key: key)
        else {
            throw .malformedEntry(
                cache: remote.settings.name, item: chapter,
                reason: "its \(role) entry names another object or is not one")
        }
        guard case .file(let file) = destination else {
            return try await remote.contains(.contentAddressable, entry.sha256) ? entry : nil
        }
        let arrived: Bool
        do {
            arrived = try await remote.download(entry.sha256, expectedBytes: entry.bytes, to: file)
        } catch let .badAnswer(_, _, reason) {
            unlink(file.path)
            throw .blobSize(cache: remote.settings.name, item: chapter, role: role, detail: reason)
        } catch {
            unlink(file.path)
            throw error
        }
        guard arrived else {
            unlink(file.path)
            return nil
        }
        guard let found = try? ContentHash.sha256Hex(fileAt: file) else {
            unlink(file.path)
            throw .localStore(reason: "\(file.path): the downloaded blob cannot be read back")
        }
        guard found == entry.sha256 else {
            unlink(file.path)
            throw .digestMismatch(
                cache: remote.settings.name, item: chapter, role: role, expected: entry.sha256, found: found)
        }
        return entry
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
