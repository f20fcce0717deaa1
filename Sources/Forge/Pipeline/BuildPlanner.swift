import Foundation

/// Answers "what will this recipe make?" at once, before any audio exists: it splits the
/// sources and estimates durations from the speaking rate; items already built in the output
/// directory contribute their real durations. Writes nothing.
package struct BuildPlanner: Sendable {
    package var recipe: Recipe

    package init(recipe: Recipe) {
        self.recipe = recipe
    }

    /// Milliseconds espeak-ng takes for `words` words at `rate` words per minute, including the
    /// pauses it makes at sentence ends (espeak-ng speaks slightly faster than asked).
    package static func estimatedMs(words: Int, rate: Int) -> Int {
        Int((Double(words) * 60_000 / Double(max(rate, 1)) * 0.9).rounded())
    }

    package func plan() throws -> PlanReport {
        let engineVersions = try BuildPipeline.engineVersions(of: recipe)
        let split = try recipe.splitSources()

        var built: [String: ItemRecord] = [:]
        if FileManager.default.fileExists(atPath: recipe.outputDirectory.appendingPathComponent(Manifest.fileName).path)
        {
            try Manifest.reading(directory: recipe.outputDirectory) { manifest in
                for record in try manifest.items() { built[record.id] = record }
            }
        }
        let store = ObjectStore(root: recipe.outputDirectory)
        var lines: [Int: PlanReport.ChapterLine] = [:]
        for chapter in split.chapters {
            lines[chapter.ordinal] = PlanReport.ChapterLine(
                ordinal: chapter.ordinal, title: chapter.title, part: chapter.part, items: 0, words: 0, itemsBuilt: 0,
                durationMs: 0)
        }
        var itemsBuilt = 0
        var toSynthesize = 0
        // Identical text in one voice is one object: sent once.
        var sent = Set<String>()
        var services: [String: [String: Int]] = [:]
        for item in split.items {
            let speech = recipe.speech(text: item.text, character: item.character, engineVersions: engineVersions)
            let audioKey = speech.audioKey
            var line =
                lines[item.chapter]
                ?? PlanReport.ChapterLine(
                    ordinal: item.chapter, title: "", items: 0, words: 0, itemsBuilt: 0, durationMs: 0)
            line.items += 1
            line.words += item.wordCount
            if let record = built[item.id], record.audioKey == audioKey,
                record.status == .done || record.status == .spoken,
                let duration = record.durationMs
            {
                line.itemsBuilt += 1
                line.durationMs += duration
                itemsBuilt += 1
            } else {
                line.durationMs += Self.estimatedMs(words: item.wordCount, rate: speech.voice.rate)
                let stored = store.contains(
                    relativePath: ObjectStore.relativePath(
                        key: audioKey, fileExtension: recipe.audio.format.fileExtension))
                if !stored { toSynthesize += 1 }
                if !stored, recipe.services[speech.voice.engine] != nil, sent.insert(audioKey).inserted {
                    services[speech.voice.engine, default: [:]][audioKey] = speech.rendering.spoken.count
                }
            }
            lines[item.chapter] = line
        }
        let chapters = lines.values.sorted { $0.ordinal < $1.ordinal }
        var report = PlanReport(
            recipePath: recipe.file.path, outputDirectory: recipe.outputDirectory.path, chapters: chapters,
            items: split.items.count, words: split.wordCount, itemsBuilt: itemsBuilt, itemsToSynthesize: toSynthesize,
            durationMs: chapters.reduce(0) { $0 + $1.durationMs }, wordsPerMinute: recipe.voice.rate)
        report.services = services.keys.sorted().map { name in
            estimate(engine: name, pending: services[name] ?? [:])
        }
        report.uncastCharacters = recipe.uncastCharacters(split.items.map(\.character))
        (report.title, report.author) = (recipe.exports.title, recipe.exports.author)
        if recipe.exports.formats.contains(.m4b) || recipe.exports.formats.contains(.acx) {
            report.credits = BookCredits(recipe.exports)
        }
        report.sources = split.readings
        report.warnings = ChapterLengthCheck(recipeFile: recipe.file.path).warnings(
            chapters.map {
                ChapterLengthCheck.ChapterLength(ordinal: $0.ordinal, title: $0.title, durationMs: $0.durationMs)
            }, items: split.items)
        report.warnings += split.readings.flatMap { reading in
            reading.warnings.map { Diagnostic.warning($0, file: recipe.file.path) }
        }
        return report
    }

    /// The chapters' lengths estimated from their words at the recipe's rate, before any audio exists.
    /// What a build would send to the service `engine` for the items `pending` (audio key → characters).
    private func estimate(engine: String, pending: [String: Int]) -> PlanReport.ServiceEstimate {
        let characters = pending.values.reduce(0, +)
        var estimate = PlanReport.ServiceEstimate(
            engine: engine, items: pending.count, characters: characters,
            cost: recipe.services[engine]?.pricePerThousandCharacters.map { $0 * Double(characters) / 1000 })
        estimate.pending = pending
        return estimate
    }

    /// `report` with the items the recipe's remote cache holds taken out of each service's
    /// estimate: a build downloads them instead of sending them. Unchanged without a cache, or
    /// when the cache cannot be asked.
    package func checkingRemoteCache(_ report: PlanReport) async -> PlanReport {
        guard let settings = recipe.cache, report.services.contains(where: { !$0.pending.isEmpty }),
            let remote = try? RemoteCache(settings: settings)
        else { return report }
        let cache = SpeechCache(remote: remote, store: ObjectStore(root: recipe.outputDirectory))
        var report = report
        for (index, service) in report.services.enumerated() {
            guard let held = await cache.holds(service.pending.keys.sorted()) else { return report }
            report.services[index] = estimate(
                engine: service.engine, pending: service.pending.filter { !held.contains($0.key) })
            report.services[index].remoteCacheChecked = true
        }
        return report
    }

    package static func estimatedChapterLengths(_ split: SplitResult, rate: Int) -> [ChapterLengthCheck.ChapterLength] {
        var words: [Int: Int] = [:]
        for item in split.items { words[item.chapter, default: 0] += item.wordCount }
        return split.chapters.map {
            ChapterLengthCheck.ChapterLength(
                ordinal: $0.ordinal, title: $0.title, durationMs: estimatedMs(words: words[$0.ordinal] ?? 0, rate: rate)
            )
        }
    }
}
