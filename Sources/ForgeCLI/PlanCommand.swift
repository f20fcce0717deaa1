import ArgumentParser
import Forge
import Foundation

struct PlanCommand: AsyncParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract:
            "Report chapters, items, words and duration at once, without building: estimated before a build, exact after."
    )

    @OptionGroup var options: RecipeOptions
    @OptionGroup(title: "Remote cache") var cache: RemoteCacheOptions
    var verbose: Bool { options.verbose }

    @Flag(name: .long, help: "Print the plan as one JSON object.")
    var json = false

    func run() async throws {
        let recipe = try cache.apply(to: options.load())
        var report: PlanReport
        do {
            report = try BuildPlanner(recipe: recipe).plan()
        } catch {
            throw CommandFailure(error)
        }
        // What a speech service would be sent leaves out what the remote cache holds (a HEAD per item).
        report = await BuildPlanner(recipe: recipe).checkingRemoteCache(report)
        if json {
            try JSONOutput.printReport(PlanReportJSON(report))
            return
        }
        print("Plan for \(report.recipePath) → \(report.outputDirectory)")
        print("Book: \(report.title)" + (report.author.map { ", by \($0)" } ?? ""))
        for source in report.sources { print(Self.describe(source)) }
        // Chapters in parts (`part`, as the splitter found them) are listed under their part's line,
        // each by its own name, so a user sees before building that the parts were found; a part
        // with text of its own is a chapter row that heads its chapters.
        let shown = report.chapters.map { line in
            guard let part = line.part, line.title != part else { return line.title }
            let prefix = part + " — "
            return "  " + (line.title.hasPrefix(prefix) ? String(line.title.dropFirst(prefix.count)) : line.title)
        }
        let titleWidth = min(40, max(7, shown.map(\.count).max() ?? 7))
        print(
            "  #  " + "chapter".padding(toLength: titleWidth, withPad: " ", startingAt: 0) + "  items   words  duration"
        )
        var currentPart: String?
        for (index, line) in report.chapters.enumerated() {
            if let part = line.part, part != currentPart, line.title != part { print("     " + part) }
            currentPart = line.part
            let title = String(shown[index].prefix(titleWidth)).padding(
                toLength: titleWidth, withPad: " ", startingAt: 0)
            let marker = line.itemsBuilt == line.items ? " " : "~"
            print(
                String(
                    format: "%3d  %@  %5d  %6d  %@%@", line.ordinal, title, line.items, line.words, marker,
                    Format.clock(seconds: Double(line.durationMs) / 1000)))
        }
        let kind =
            report.isExact
            ? "exact (every item is built)"
            : report.itemsBuilt == 0
                ? "estimated at \(report.wordsPerMinute) words per minute"
                : "\(report.itemsBuilt) of \(report.items) items measured, the rest estimated (~)"
        print(
            "\(report.chapters.count) chapters, \(report.items) items, \(report.words) words, \(Format.clock(seconds: Double(report.durationMs) / 1000)) of audio: \(kind)."
        )
        print("A build would synthesize \(report.itemsToSynthesize) item(s).")
        for (name, text) in [("Opening", report.credits.opening), ("Closing", report.credits.closing)] {
            if let text { print("\(name) credits (M4B, ACX): “\(text)”") }
        }
        for service in report.services {
            let cost =
                service.cost.map { String(format: ", about %.\($0 < 1 ? 4 : 2)f at the recipe's price", $0) } ?? ""
            let cached =
                service.remoteCacheChecked
                ? "the remote cache's items left out" : "items a remote cache holds would be downloaded, not sent"
            print(
                "Service \(service.engine): \(service.items) item(s), \(service.characters) characters to send\(cost) (\(cached))."
            )
        }
        if !report.uncastCharacters.isEmpty {
            DiagnosticPrinter.print(
                .warning(BuildPipeline.uncastWarning(report.uncastCharacters), file: report.recipePath))
        }
        for warning in report.warnings { DiagnosticPrinter.print(warning) }
    }

    /// "Source book.txt: Windows-1252; 3,112 words not spoken (Project Gutenberg licence, contents)."
    static func describe(_ source: SourceReading) -> String {
        var line = "Source \(source.path)"
        if let encoding = source.encoding { line += ": read as \(encoding.rawValue)" }
        if source.unspokenWords > 0 {
            line += "\(source.encoding == nil ? ":" : ";") \(source.unspokenWords) words not spoken ("
            line += source.unspokenKinds.joined(separator: ", ") + "; split.keepFrontMatter keeps them)"
        }
        return line + "."
    }
}
