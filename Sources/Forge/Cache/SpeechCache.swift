import Foundation

/// Items' speech objects shared through a ``RemoteCache``: looked up and downloaded before
/// synthesis, uploaded after. Nothing from the server is trusted: every blob's SHA-256 is checked
/// against its entry before it reaches the object store, and the events must decode.
package struct SpeechCache: Sendable {
    package let remote: RemoteCache
    let store: ObjectStore

    package init(remote: RemoteCache, store: ObjectStore) {
        self.remote = remote
        self.store = store
    }

    /// What one item's lookup found.
    package struct Download: Sendable {
        package var audio: StoredObject
        package var events: StoredObject
        package var document: SpeechEventsDocument
        package var voice: String
        /// Bytes received (entry and blobs).
        package var bytes: Int
        /// Set when the audio was left in the cache (``fetch(audioKey:eventsKey:item:voice:audioExtension:mimeType:leavingAudio:)``):
        /// the audio object is described, not stored, and this is what its entry says it measures.
        package var remote: ItemSignal?
    }

    /// Downloads and stores the objects of `audioKey`; nil when the cache has no entry for it.
    /// `item` names the item in messages.
    /// `voice` is the URI of the voice the item's audio key was made for: an entry naming another is refused.
    /// With `leavingAudio`, an item whose events time its words gets only its events: its audio stays
    /// in the cache until something needs its samples (``RemoteObjectFetcher``).
    package func fetch(
        audioKey: String, eventsKey: String, item: String, voice: String, audioExtension: String, mimeType: String,
        leavingAudio: Bool = false
    ) async throws(RemoteCacheError) -> Download? {
        guard
            let (entry, entryData) = try await entry(
                audioKey: audioKey, item: item, voice: voice, audioExtension: audioExtension)
        else { return nil }
        let name = remote.settings.name
        let eventsData = try await blob(entry.events, role: "events", item: item)
        let document: SpeechEventsDocument
        do {
            document = try SpeechEventsDocument.decode(eventsData)
        } catch {
            throw .malformedEntry(
                cache: name, item: item, reason: "its events do not decode: \(error.localizedDescription)")
        }
        let leave = leavingAudio && document.hasWordTimings
        if leave {
            // Left there only while the cache holds it: an entry can outlive its blob (a pruned cache).
            guard try await remote.contains(.contentAddressable, entry.audio.sha256) else {
                throw .malformedEntry(cache: name, item: item, reason: "its audio blob is missing")
            }
            guard entry.signal.sampleCount >= 0, entry.signal.sampleCount <= Int(Int32.max),
                entry.signal.durationMs == entry.signal.sampleCount * 1000 / max(document.sampleRate, 1)
            else {
                throw .malformedEntry(
                    cache: name, item: item, reason: "its measures do not fit its events' sample rate")
            }
        }
        let audioData = leave ? Data() : try await blob(entry.audio, role: "audio", item: item)
        do {
            let audio =
                leave
                ? StoredObject(
                    key: audioKey, path: ObjectStore.relativePath(key: audioKey, fileExtension: audioExtension),
                    role: .audio,
                    bytes: entry.audio.bytes, sha256: entry.audio.sha256, mimeType: mimeType,
                    durationMs: document.durationMs,
                    sampleRate: document.sampleRate, frames: entry.signal.sampleCount)
                : try store.store(
                    key: audioKey, fileExtension: audioExtension, role: .audio, mimeType: mimeType, data: audioData,
                    durationMs: document.durationMs, sampleRate: document.sampleRate, sha256: entry.audio.sha256)
            let events = try store.store(
                key: eventsKey, fileExtension: "json", role: .events, mimeType: "application/json", data: eventsData,
                sha256: entry.events.sha256)
            return Download(
                audio: audio, events: events, document: document, voice: entry.voice,
                bytes: entryData.count + audioData.count + eventsData.count,
                remote: leave ? entry.signal : nil)
        } catch {
            // The local disk failing is not the cache's fault: the item is synthesized, which will report it.
            throw .localStore(reason: "item \(item): storing what the cache sent failed: \(error.localizedDescription)")
        }
    }

    /// The cache's entry for `audioKey`, checked against what the item asks for (format, audio
    /// key, extension, voice, digests, sizes), with its bytes; nil when the cache has none.
    func entry(audioKey: String, item: String, voice: String, audioExtension: String) async throws(RemoteCacheError)
        -> (SpeechCacheEntry, Data)?
    {
        let name = remote.settings.name
        let entryData: Data
        do {
            guard let data = try await remote.get(.actionCache, SpeechCacheEntry.actionKey(audioKey: audioKey)) else {
                return nil
            }
            entryData = data
        } catch let .badAnswer(_, _, reason) {
            throw .malformedEntry(cache: name, item: item, reason: reason)
        }
        let entry: SpeechCacheEntry
        do {
            entry = try JSONDecoder().decode(SpeechCacheEntry.self, from: entryData)
        } catch {
            throw .malformedEntry(cache: name, item: item, reason: "not a \(SpeechCacheEntry.formatName) entry")
        }
        guard entry.format == SpeechCacheEntry.formatName, entry.version == SpeechCacheEntry.currentVersion else {
            throw .malformedEntry(cache: name, item: item, reason: "format \(entry.format) version \(entry.version)")
        }
        guard entry.audioKey == audioKey, entry.audioExtension == audioExtension,
            SpeechCacheEntry.isDigest(entry.audio.sha256), SpeechCacheEntry.isDigest(entry.events.sha256)
        else { throw .malformedEntry(cache: name, item: item, reason: "it describes other audio") }
        // Recorded in the manifest as the item's voice: it must be the voice the item asks for.
        guard entry.voice == voice else {
            throw .malformedEntry(
                cache: name, item: item,
                reason:
                    "its field \"voice\" is \(JSONWriter.quoted(String(entry.voice.prefix(80)))), not \(JSONWriter.quoted(voice))"
            )
        }
        guard entry.audio.bytes >= 0, entry.audio.bytes <= RemoteCache.blobLimit, entry.events.bytes >= 0,
            entry.events.bytes <= RemoteCache.blobLimit
        else {
            throw .malformedEntry(cache: name, item: item, reason: "its blobs' sizes are out of range")
        }
        return (entry, entryData)
    }

    /// Whether a hit on `audioKey` is spot-checked: made here and compared with the cache's
    /// digest instead of downloaded. About one hit in 32, chosen by the key's digest (the same on
    /// every machine), and in every build the looked-up item with the smallest such digest.
    package static func spotCheckDigest(_ audioKey: String) -> String {
        ContentHash.sha256Hex("spot-check|" + audioKey)
    }
    package static func isSpotChecked(_ audioKey: String) -> Bool { spotCheckDigest(audioKey) < "08" }

    private func blob(_ blob: SpeechCacheEntry.Blob, role: String, item: String) async throws(RemoteCacheError) -> Data
    {
        let fetched: Data?
        do {
            fetched = try await remote.get(.contentAddressable, blob.sha256, expectedBytes: blob.bytes)
        } catch let .badAnswer(_, _, reason) {
            throw .blobSize(cache: remote.settings.name, item: item, role: role, detail: reason)
        }
        guard let data = fetched else {
            throw .malformedEntry(cache: remote.settings.name, item: item, reason: "its \(role) blob is missing")
        }
        let found = ContentHash.sha256Hex(data)
        guard found == blob.sha256 else {
            throw .digestMismatch(
                cache: remote.settings.name, item: item, role: role, expected: blob.sha256, found: found)
        }
        return data
    }

    /// Uploads an item's objects, then its entry: an entry is only ever written after the blobs
    /// it names, so a stopped upload never leaves an entry pointing at nothing. Returns the bytes sent.
    package func upload(audio: StoredObject, events: StoredObject, voice: String) async throws(RemoteCacheError) -> Int
    {
        // Read without following links (a link planted at an object must not send another file away).
        var signal: ItemSignal?
        for object in [audio, events] {
            let data: Data
            do {
                data = try store.read(relativePath: object.path)
                if object.role == .audio {
                    let decoded = try SoundFile.decode([UInt8](data), label: object.path)
                    signal = ItemSignal(samples: decoded.samples, sampleRate: decoded.sampleRate)
                }
            } catch {
                throw .localStore(reason: "\(object.path) cannot be read for upload: \(error.localizedDescription)")
            }
            try await remote.put(.contentAddressable, object.sha256, data: data)
        }
        guard let signal else { throw .localStore(reason: "\(audio.path) is not audio") }
        let entry = SpeechCacheEntry(
            audioKey: audio.key, voice: voice, audioExtension: (audio.path as NSString).pathExtension,
            audio: .init(sha256: audio.sha256, bytes: audio.bytes),
            events: .init(sha256: events.sha256, bytes: events.bytes), signal: signal)
        let data = entry.encoded()
        try await remote.put(.actionCache, SpeechCacheEntry.actionKey(audioKey: audio.key), data: data)
        return audio.bytes + events.bytes + data.count
    }
}
