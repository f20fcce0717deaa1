import Forge

/// One line of a build's `--json` output (build, split, speak, align, verify): a
/// ``ProgressEvent`` with its `event` name. The closing line is a ``BuildSummaryJSON``.
struct BuildEventJSON: Encodable {
    let event: ProgressEvent

    init(_ event: ProgressEvent) {
        self.event = event
    }

    /// Every key any event has; docs/json.md gives which event has which.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case event, build, output
        case chapters, items, words, changedItems
        case upToDate, toSynthesize, toReuse, toAlign
        case id, ordinal, outcome, finished, toFinish, finishedMs, toFinishMs, audioMs, durationMs, elapsedSeconds,
            error
        case looked, found, bytes
        case phase
        case message, file, line, field, item, suggestion
        case chapter, chunk, startMs, endMs, wordErrorRate, flaggedItems
    }

    /// The `event` name each case is written with.
    var name: String {
        switch event {
        case .started: "started"
        case .split: "split"
        case .planned: "planned"
        case .remoteCache: "remoteCache"
        case .uploaded: "uploaded"
        case .fetchedAudio: "fetchedAudio"
        case .item: "item"
        case .saved: "saved"
        case .phase: "phase"
        case .exporting: "exporting"
        case .verified: "verified"
        case .cancelling: "cancelling"
        // Named by its severity ("warning"), its location and suggestion beside the message.
        case .diagnostic(let diagnostic): diagnostic.severity.rawValue
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .event)
        switch event {
        case .started(let buildID, let outputDirectory):
            try container.encode(buildID, forKey: .build)
            try container.encode(outputDirectory, forKey: .output)
        case .split(let chapters, let items, let words, let changedItems):
            try container.encode(chapters, forKey: .chapters)
            try container.encode(items, forKey: .items)
            try container.encode(words, forKey: .words)
            try container.encode(changedItems, forKey: .changedItems)
        case .planned(let upToDate, let toSynthesize, let toReuse, let toAlign):
            try container.encode(upToDate, forKey: .upToDate)
            try container.encode(toSynthesize, forKey: .toSynthesize)
            try container.encode(toReuse, forKey: .toReuse)
            try container.encode(toAlign, forKey: .toAlign)
        case .item(let item):
            try container.encode(item.itemID, forKey: .id)
            try container.encode(item.ordinal, forKey: .ordinal)
            try container.encode(item.outcome.rawValue, forKey: .outcome)
            try container.encode(item.finished, forKey: .finished)
            try container.encode(item.toFinish, forKey: .toFinish)
            try container.encode(item.audioMs, forKey: .audioMs)
            try container.encodeIfPresent(item.durationMs, forKey: .durationMs)
            try container.encode(JSONOutput.rounded(item.elapsedSeconds, places: 3), forKey: .elapsedSeconds)
            try container.encodeIfPresent(item.error, forKey: .error)
        case .saved(let committedItems):
            try container.encode(committedItems, forKey: .items)
        case .cancelling:
            break
        case .remoteCache(let looked, let found, let bytes):
            try container.encode(looked, forKey: .looked)
            try container.encode(found, forKey: .found)
            try container.encode(bytes, forKey: .bytes)
        case .uploaded(let items, let bytes):
            try container.encode(items, forKey: .items)
            try container.encode(bytes, forKey: .bytes)
        case .fetchedAudio(let items, let bytes, let phase):
            try container.encode(items, forKey: .items)
            try container.encode(bytes, forKey: .bytes)
            try container.encode(phase, forKey: .phase)
        case .phase(let name):
            try container.encode(name, forKey: .phase)
        case .exporting(let progress):
            try container.encode(progress.phase, forKey: .phase)
            try container.encode(progress.done, forKey: .finished)
            try container.encode(progress.total, forKey: .toFinish)
            if progress.toFinishMs > 0 {
                try container.encode(progress.finishedMs, forKey: .finishedMs)
                try container.encode(progress.toFinishMs, forKey: .toFinishMs)
            }
        case .diagnostic(let diagnostic):
            try container.encode(diagnostic.message, forKey: .message)
            try container.encodeIfPresent(diagnostic.file, forKey: .file)
            try container.encodeIfPresent(diagnostic.line, forKey: .line)
            try container.encodeIfPresent(diagnostic.field, forKey: .field)
            try container.encodeIfPresent(diagnostic.item, forKey: .item)
            try container.encodeIfPresent(diagnostic.suggestion, forKey: .suggestion)
        case .verified(let chunk):
            try container.encode(chunk.chapter, forKey: .chapter)
            try container.encode(chunk.index, forKey: .chunk)
            try container.encode(chunk.startMs, forKey: .startMs)
            try container.encode(chunk.endMs, forKey: .endMs)
            try container.encode(JSONOutput.rounded(chunk.wordErrorRate, places: 4), forKey: .wordErrorRate)
            try container.encode(chunk.flaggedItems.map(\.itemID), forKey: .flaggedItems)
        }
    }
}
