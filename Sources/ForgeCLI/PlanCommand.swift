import ArgumentParser
import Forge
import Foundation

struct PlanCommand: AsyncParsableCommand, VerboseCommand {
    static let configuration = CommandConfiguration(
        commandName: "plan",
        abstract: "Report chapters, items, words and duration at once, without building: estimated before a build, exact after.")

    @OptionGroup var options: RecipeOptions
    var verbose: Bool { options.verbose }

    @Flag(name: .long, help: "Print the plan as one JSON object.")
    var json = false

    func run() async throws {
        let recipe = try options.load()
        let report: PlanReport
        do {
            report = try BuildPlanner(recipe: recipe).plan()
        } catch {
            throw CommandFailure(error)
        }
        if json {
            let fields: [String: Any] = [
                "recipe": report.recipePath, "output": report.outputDirectory, "items": report.items, "words": report.words,
                "itemsBuilt": report.itemsBuilt, "itemsToSynthesize": report.itemsToSynthesize, "durationMs": report.durationMs,
                "exact": report.isExact, "wordsPerMinute": report.wordsPerMinute, "uncastCharacters": report.uncastCharacters,
                "chapters": report.chapters.map {
                    ["ordinal": $0.ordinal, "title": $0.title, "items": $0.items, "words": $0.words, "itemsBuilt": $0.itemsBuilt, "durationMs": $0.durationMs] as [String: Any]
                },
            ]
            try Format.printJSON(fields)
            return
        }
        print("Plan for \(report.recipePath) → \(report.outputDirectory)")
        // Chapters in parts ("Book Five — CHAPTER I", titled so by the splitter) are listed under
        // their part's line, so a user sees before building that the parts were found.
        let parts = Self.parts(of: report.chapters.map(\.title))
        let shown = zip(report.chapters, parts).map { line, part in part.map { "  " + line.title.dropFirst($0.count + 3) } ?? line.title }
        let titleWidth = min(40, max(7, shown.map(\.count).max() ?? 7))
        print("  #  " + "chapter".padding(toLength: titleWidth, withPad: " ", startingAt: 0) + "  items   words  duration")
        var currentPart: String?
        for (index, line) in report.chapters.enumerated() {
            if let part = parts[index], part != currentPart { print("     " + part) }
            currentPart = parts[index]
            let title = String(shown[index].prefix(titleWidth)).padding(toLength: titleWidth, withPad: " ", startingAt: 0)
            let marker = line.itemsBuilt == line.items ? " " : "~"
            print(String(format: "%3d  %@  %5d  %6d  %@%@", line.ordinal, title, line.items, line.words, marker, Format.clock(seconds: Double(line.durationMs) / 1000)))
            // A part with text of its own has a row of its own: it heads its chapters.
            if index + 1 < parts.count, parts[index + 1] == line.title { currentPart = line.title }
        }
        let kind = report.isExact ? "exact (every item is built)" : report.itemsBuilt == 0
            ? "estimated at \(report.wordsPerMinute) words per minute" : "\(report.itemsBuilt) of \(report.items) items measured, the rest estimated (~)"
        print("\(report.chapters.count) chapters, \(report.items) items, \(report.words) words, \(Format.clock(seconds: Double(report.durationMs) / 1000)) of audio: \(kind).")
        print("A build would synthesize \(report.itemsToSynthesize) item(s).")
        if !report.uncastCharacters.isEmpty {
            try? FileHandle.standardError.write(contentsOf: Data("warning: \(BuildPipeline.uncastWarning(report.uncastCharacters))\n".utf8))
        }
    }

    /// Each title's part: the text before its first " — " when a neighbouring chapter's title starts
    /// the same way (a lone "Chapter 1 — The Beginning" is a title, not a part).
    static func parts(of titles: [String]) -> [String?] {
        let prefixes = titles.map { title in title.range(of: " — ").map { String(title[..<$0.lowerBound]) } }
        return prefixes.indices.map { index in
            guard let prefix = prefixes[index] else { return nil }
            let before = index > 0 && (prefixes[index - 1] == prefix || titles[index - 1] == prefix)
            let after = index + 1 < prefixes.count && prefixes[index + 1] == prefix
            return before || after ? prefix : nil
        }
    }
}
