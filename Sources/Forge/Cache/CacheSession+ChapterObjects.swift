import Foundation

extension CacheSession {
    /// The role under which chapters' AAC encodings are filed in the remote cache.
    static let encodedRole = "encoded"

    /// The SHA-256 of each audio file of `timeline`, in order: what a chapter object's cache entry
    /// is filed under beside the object's own key.
    func audioDigests(of timeline: ChapterTimeline) throws -> [String] {
        let objects = try manifest.objects(withKeys: timeline.items.compactMap(\.record.audioKey))
        return timeline.items.map { objects[$0.record.audioKey ?? ""]?.sha256 ?? "-" }
    }

    /// Takes from the remote cache the AAC encodings of `pieces` (indices of `encoder`'s pieces:
    /// chapters, or a long chapter's pieces) that the store lacks, a few at a time; every blob's
    /// size, SHA-256 and frames are checked, and one that fails is refused with a warning naming its
    /// chapter (the export encodes it). Returns how many were taken.
    mutating func downloadEncodings(_ encoder: ChapterEncoder, pieces: [Int], from cache: ChapterObjectCache)
        async throws -> Int
    {
        guard !isUnavailable, !cancellation.isCancelled else { return 0 }
        let identity = try ChapterEncoder.identity(encoder.settings)
        var wanted: [(index: Int, key: String, actionKey: String)] = []
        for index in pieces {
            let key = try encoder.encodingKey(index, identity: identity)
            guard try encoder.stored(key) == nil else { continue }
            wanted.append(
                (
                    index, key,
                    ChapterObjectEntry.actionKey(
                        role: Self.encodedRole, key: key, audioDigests: try audioDigests(of: encoder.pieces[index]))
                ))
        }
        guard !wanted.isEmpty else { return 0 }
        var taken = 0
        var bytes = 0
        var failure: RemoteCacheError?
        try store.prepare()
        // Each blob goes to a file as it arrives; one at a time is read back, checked and stored.
        let (root, process) = (store.root, getpid())
        @Sendable func scratch(_ key: String) -> URL {
            ObjectStore(root: root).url(forRelativePath: "objects/tmp/download-\(key).\(process).aac")
        }
        for next in wanted { unlink(scratch(next.key).path) }
        await fetchChapterObjects(wanted, from: cache) { next in
            (next.actionKey, Self.encodedRole, next.key, encoder.label(next.index), .file(scratch(next.key)))
        } take: { next, result in
            answer(
                result, chapter: encoder.pieces[next.index].chapter.ordinal, making: "The chapter is encoded here.",
                failure: &failure
            ) { entry in
                let file = scratch(next.key)
                defer { unlink(file.path) }
                let data = try Data(contentsOf: file)
                guard encoder.fits([UInt8](data), piece: next.index) else {
                    warn(
                        .warning(
                            "the remote cache's encoding of \(encoder.label(next.index)) is not whole AAC frames of its length; it was refused and encoded here."
                        ))
                    return
                }
                let timeline = encoder.pieces[next.index]
                let object = try store.store(
                    key: entry.key, fileExtension: ChapterEncoder.fileExtension, role: .encoded,
                    mimeType: ChapterEncoder.mimeType, data: data,
                    durationMs: timeline.durationMs, sampleRate: timeline.sampleRate, frames: timeline.totalSamples)
                try manifest.recordEncoded(object)
                taken += 1
                bytes += data.count
            }
        }
        traffic.downloadedBytes += bytes
        if let failure { try failed(failure) }
        return taken
    }

    /// Fetches chapter objects from the cache, up to ``RemoteCache/connections`` at once (Ctrl-C
    /// cancels the requests in flight), handing each answer to `take` as it arrives; `take` returns
    /// false to stop asking for the rest.
    func fetchChapterObjects<Job: Sendable>(
        _ jobs: [Job], from cache: ChapterObjectCache,
        request:
            @escaping @Sendable (Job) -> (
                actionKey: String, role: String, key: String, chapter: String,
                destination: ChapterObjectCache.Destination
            ),
        take: (Job, Result<ChapterObjectEntry?, RemoteCacheError>) -> Bool
    ) async {
        await BoundedTasks.run(
            jobs, limit: RemoteCache.connections, cancellation: cancellation,
            perform: { job -> Result<ChapterObjectEntry?, RemoteCacheError> in
                let asked = request(job)
                do throws(RemoteCacheError) {
                    return .success(
                        try await cache.fetch(
                            actionKey: asked.actionKey, role: asked.role, key: asked.key, chapter: asked.chapter,
                            into: asked.destination))
                } catch {
                    return .failure(error)
                }
            },
            take: { job, result in take(job, result) ? .goOn : .startNoMore })
    }

    /// What one answer of ``fetchChapterObjects(_:from:request:take:)`` does: what
    /// arrived goes to `keep` (whose error, the local disk's, ends the lookups), what the cache lacks
    /// is passed over, and what it sent wrong is refused (``refuse(_:chapter:making:failure:)``).
    /// Whether to go on asking.
    func answer(
        _ result: Result<ChapterObjectEntry?, RemoteCacheError>, chapter: Int, making: String,
        failure: inout RemoteCacheError?, keep: (ChapterObjectEntry) throws -> Void
    ) -> Bool {
        switch result {
        case .success(let entry?):
            do {
                try keep(entry)
                return true
            } catch {
                failure = failure ?? .localStore(reason: ErrorReason.message(error))
                return false
            }
        case .success(nil):
            return true
        case .failure(let error):
            return refuse(error, chapter: chapter, making: making, failure: &failure)
        }
    }

    /// A refused entry or blob is a warning naming its chapter (true: go on); another failure ends
    /// the lookups (false), kept in `failure` for the caller.
    func refuse(_ error: RemoteCacheError, chapter: Int, making: String, failure: inout RemoteCacheError?) -> Bool {
        switch error {
        case .digestMismatch, .blobSize, .malformedEntry, .badAnswer:
            warn(.warning("chapter \(chapter): \(ErrorReason.message(error)) \(making)"))
            return true
        default:
            failure = failure ?? error
            return false
        }
    }

    /// Uploads the stored AAC encodings of `pieces` (indices of `encoder`'s pieces), a few at a
    /// time, each after its bytes. Returns how many arrived.
    mutating func uploadEncodings(_ encoder: ChapterEncoder, pieces: [Int], to cache: ChapterObjectCache) async throws
        -> Int
    {
        guard !cache.remote.settings.readOnly, !isUnavailable, !cancellation.isCancelled else { return 0 }
        let identity = try ChapterEncoder.identity(encoder.settings)
        var uploads: [(object: StoredObject, actionKey: String)] = []
        for index in pieces {
            let key = try encoder.encodingKey(index, identity: identity)
            guard let object = try encoder.stored(key) else { continue }
            uploads.append(
                (
                    object,
                    ChapterObjectEntry.actionKey(
                        role: Self.encodedRole, key: key, audioDigests: try audioDigests(of: encoder.pieces[index]))
                ))
        }
        let store = store
        var count = 0
        var failure: RemoteCacheError?
        await BoundedTasks.run(
            uploads, limit: RemoteCache.connections, cancellation: cancellation,
            perform: { next -> Result<Int, RemoteCacheError> in
                do throws(RemoteCacheError) {
                    let data: Data
                    do { data = try store.read(relativePath: next.object.path) } catch {
                        throw .localStore(
                            reason: "\(next.object.path) cannot be read for upload: \(ErrorReason.message(error))")
                    }
                    return .success(
                        try await cache.upload(
                            next.object, data: data, role: Self.encodedRole, actionKey: next.actionKey))
                } catch {
                    return .failure(error)
                }
            },
            take: { _, result in
                switch result {
                case .success(let bytes):
                    count += 1
                    traffic.uploadedBytes += bytes
                    return .goOn
                case .failure(let error):
                    failure = failure ?? error
                    return .startNoMore
                }
            })
        if let failure { try failed(failure) }
        return count
    }
}

extension CacheSession {
    /// The role under which chapters' ACX files are filed in the remote cache.
    static let acxRole = "acx"

    /// Takes from the remote cache the ACX files of `files` (chapters of `timelines`) that were made
    /// elsewhere, into scratch files beside the exports: what the export copies instead of mastering.
    /// A refused entry or blob is a warning naming its chapter (the export masters it). Returns the
    /// files by export path.
    mutating func downloadACXFiles(
        _ files: [AudiobookExport.ACXChapterFile], timelines: [ChapterTimeline], from cache: ChapterObjectCache
    ) async throws -> [String: URL] {
        let writer = ExportWriter(outputDirectory: store.root, folder: "exports", cancellation: cancellation)
        var prepared: [String: URL] = [:]
        var bytes = 0
        // Each file is written where the export copies it from as it arrives, never held whole.
        var scratch: [String: URL] = [:]
        for file in files { scratch[file.key] = try writer.scratchURL("acx-\(file.key)") }
        let places = scratch
        try await lookUpACXFiles(files, timelines: timelines, from: cache) { file in
            places[file.key].map(ChapterObjectCache.Destination.file) ?? .presenceOnly
        } found: { file, entry in
            prepared[file.path] = places[file.key]
            bytes += entry.bytes
        }
        traffic.downloadedBytes += bytes
        return prepared
    }

    /// The export paths of the ACX files of `files` that the remote cache holds (entry and blob),
    /// asked without downloading them: what a shard run again need not master.
    mutating func acxFilesInCache(
        _ files: [AudiobookExport.ACXChapterFile], timelines: [ChapterTimeline], from cache: ChapterObjectCache
    ) async throws -> Set<String> {
        var present: Set<String> = []
        try await lookUpACXFiles(files, timelines: timelines, from: cache) { _ in
            .presenceOnly
        } found: { file, _ in
            present.insert(file.path)
        }
        return present
    }

    /// Asks the cache for the ACX files of `files`, each blob put where `destination` says, handing
    /// each one it holds to `found` with its entry; a refused one is a warning naming its chapter,
    /// and what `found` throws (the local disk) ends the lookups.
    private mutating func lookUpACXFiles(
        _ files: [AudiobookExport.ACXChapterFile], timelines: [ChapterTimeline], from cache: ChapterObjectCache,
        destination: @escaping @Sendable (AudiobookExport.ACXChapterFile) -> ChapterObjectCache.Destination,
        found: (AudiobookExport.ACXChapterFile, ChapterObjectEntry) throws -> Void
    ) async throws {
        guard !isUnavailable, !cancellation.isCancelled, !files.isEmpty else { return }
        let byOrdinal = Dictionary(timelines.map { ($0.chapter.ordinal, $0) }, uniquingKeysWith: { first, _ in first })
        var wanted: [(file: AudiobookExport.ACXChapterFile, actionKey: String)] = []
        for file in files {
            guard let timeline = byOrdinal[file.ordinal] else { continue }
            wanted.append(
                (
                    file,
                    ChapterObjectEntry.actionKey(
                        role: Self.acxRole, key: file.key, audioDigests: try audioDigests(of: timeline))
                ))
        }
        var failure: RemoteCacheError?
        await fetchChapterObjects(wanted, from: cache) { next in
            (next.actionKey, Self.acxRole, next.file.key, "chapter \(next.file.ordinal)", destination(next.file))
        } take: { next, result in
            answer(result, chapter: next.file.ordinal, making: "Its ACX file is mastered here.", failure: &failure) {
                try found(next.file, $0)
            }
        }
        if let failure { try failed(failure) }
    }

    /// Uploads the ACX files of `files` written under this build's `exports/` (a shard's chapters).
    /// Returns how many arrived.
    mutating func uploadACXFiles(
        _ files: [AudiobookExport.ACXChapterFile], timelines: [ChapterTimeline], to cache: ChapterObjectCache
    ) async throws -> Int {
        guard !cache.remote.settings.readOnly, !isUnavailable, !cancellation.isCancelled else { return 0 }
        let byOrdinal = Dictionary(timelines.map { ($0.chapter.ordinal, $0) }, uniquingKeysWith: { first, _ in first })
        let owned = OwnedDirectory(root: store.root)
        var count = 0
        for file in files {
            guard !cancellation.isCancelled, let timeline = byOrdinal[file.ordinal] else { continue }
            let data = try owned.read("exports/" + file.path)
            let entry = ChapterObjectEntry(
                role: Self.acxRole, key: file.key, fileExtension: "mp3", sha256: ContentHash.sha256Hex(data),
                bytes: data.count,
                durationMs: timeline.durationMs, sampleRate: 44_100, frames: nil)
            let actionKey = ChapterObjectEntry.actionKey(
                role: Self.acxRole, key: file.key, audioDigests: try audioDigests(of: timeline))
            do throws(RemoteCacheError) {
                traffic.uploadedBytes += try await cache.upload(entry, data: data, actionKey: actionKey)
                count += 1
            } catch {
                try failed(error)
                break
            }
        }
        return count
    }
}
