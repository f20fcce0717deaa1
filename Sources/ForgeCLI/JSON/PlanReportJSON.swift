import Forge

/// `forge plan --json`: the book's chapters, items, words and estimated duration, before building.
struct PlanReportJSON: Encodable {
    var recipe: String
    var output: String
    var items: Int
    var words: Int
    var itemsBuilt: Int
    var itemsToSynthesize: Int
    var durationMs: Int
    var exact: Bool
    var wordsPerMinute: Int
    var uncastCharacters: [String]
    var chapters: [Chapter]
    /// Chapters that are probably several whose headings were not found.
    var warnings: [Warning]
    /// How each source was read: its encoding (null for an EPUB) and its words not spoken.
    var sources: [Source]
    /// What a build would send to each speech service.
    var services: [Service]
    var title: String
    var author: JSONNull<String>
    /// The M4B's and the ACX set's credits; null for none.
    var openingCredit: JSONNull<String>
    var closingCredit: JSONNull<String>

    struct Service: Encodable {
        var engine: String
        var items: Int
        var characters: Int
        var cost: JSONNull<Double>
        var remoteCacheChecked: Bool
    }

    struct Source: Encodable {
        var path: String
        var encoding: JSONNull<String>
        var unspokenWords: Int
        var unspoken: [String]
    }

    struct Warning: Encodable {
        var message: String
        var field: JSONNull<String>
        var suggestion: JSONNull<String>
    }

    struct Chapter: Encodable {
        var ordinal: Int
        var title: String
        /// The part the chapter is in; null in a book without parts.
        var part: JSONNull<String>
        var items: Int
        var words: Int
        var itemsBuilt: Int
        var durationMs: Int
    }

    init(_ report: PlanReport) {
        recipe = report.recipePath
        output = report.outputDirectory
        items = report.items
        words = report.words
        itemsBuilt = report.itemsBuilt
        itemsToSynthesize = report.itemsToSynthesize
        durationMs = report.durationMs
        exact = report.isExact
        wordsPerMinute = report.wordsPerMinute
        uncastCharacters = report.uncastCharacters
        title = report.title
        author = JSONNull(report.author)
        openingCredit = JSONNull(report.credits.opening)
        closingCredit = JSONNull(report.credits.closing)
        warnings = report.warnings.map {
            Warning(message: $0.message, field: JSONNull($0.field), suggestion: JSONNull($0.suggestion))
        }
        sources = report.sources.map {
            Source(
                path: $0.path, encoding: JSONNull($0.encoding?.rawValue), unspokenWords: $0.unspokenWords,
                unspoken: $0.unspokenKinds)
        }
        services = report.services.map {
            Service(
                engine: $0.engine, items: $0.items, characters: $0.characters,
                cost: $0.cost.map { JSONOutput.rounded($0, places: 4) } ?? JSONNull(nil),
                remoteCacheChecked: $0.remoteCacheChecked)
        }
        chapters = report.chapters.map {
            Chapter(
                ordinal: $0.ordinal, title: $0.title, part: JSONNull($0.part), items: $0.items, words: $0.words,
                itemsBuilt: $0.itemsBuilt, durationMs: $0.durationMs)
        }
    }
}
