import Foundation
import Testing

@testable import Forge

/// Headings in shapes no rule names (``CounterHeadings``): a counter that goes up through the book,
/// in a decoration of the book's own, found from the book itself — and prose that only looks like
/// headings left alone.
@Suite("Heading series found from the book")
struct HeadingSeriesTests {
    func split(_ text: String) -> SplitResult {
        Splitter(settings: SplitSettings()).split([("book.txt", .text, text)])
    }

    /// A seeded generator (a 64-bit linear congruential one, its high bits mixed down), so a failing
    /// book can be made again from its seed.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 33)
        }
    }

    static let words =
        "the a house of river and she he went to walked under over into by with long quiet morning evening letter friend town field dark light heart said when then again never always"
        .split(separator: " ").map(String.init)
    static let numberWords = [
        "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve", "Thirteen",
        "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen", "Nineteen", "Twenty", "Twenty-One", "Twenty-Two",
    ]

    /// How a generated book writes its counters.
    enum CounterStyle: CaseIterable {
        case digits, upperRoman, lowerRoman, words, upperWords, upperLetters

        func text(_ value: Int) -> String {
            switch self {
            case .digits: String(value)
            case .upperRoman: HeadingCounter.roman(value)
            case .lowerRoman: HeadingCounter.roman(value).lowercased()
            case .words: HeadingSeriesTests.numberWords[value - 1]
            case .upperWords: HeadingSeriesTests.numberWords[value - 1].uppercased()
            case .upperLetters: String(UnicodeScalar(UInt8(64 + value)))
            }
        }
    }

    /// A book of generated prose under generated headings, and what the splitter must make of it.
    struct GeneratedBook {
        var text = ""
        /// Chapter titles as the splitter gives them: the part's title, " — ", the chapter's.
        var titles: [String] = []
        /// Lines that look like headings and must stay text.
        var lookAlikes: [String] = []
    }

    static func sentence(_ generator: inout Seeded, words count: ClosedRange<Int> = 6...18) -> String {
        let chosen = (0..<Int.random(in: count, using: &generator)).map { _ in words.randomElement(using: &generator)! }
        return chosen[0].capitalized + " " + chosen.dropFirst().joined(separator: " ") + "."
    }

    static func paragraph(_ generator: inout Seeded) -> String {
        (0..<Int.random(in: 2...6, using: &generator)).map { _ in sentence(&generator) }.joined(separator: " ")
    }

    /// A decoration around a counter: up to two marks before and after it (from marks no rule names), with or without spaces.
    static func decoration(_ generator: inout Seeded) -> (before: String, after: String) {
        let marks = Array("~—–§*·<>()[]{}#=+|•◆❦❧⁂※°")
        let before = String(
            (0..<Int.random(in: 0...2, using: &generator)).map { _ in marks.randomElement(using: &generator)! })
        let after = String(
            (0..<Int.random(in: 0...2, using: &generator)).map { _ in marks.randomElement(using: &generator)! })
        let space = Bool.random(using: &generator) ? " " : ""
        return (before.isEmpty ? "" : before + space, after.isEmpty ? "" : space + after)
    }

    /// The heading's title: its line without the decoration around it (a full stop after the counter kept).
    static func title(_ line: String) -> String {
        let scalars = Array(line.unicodeScalars)
        let isWord = { (scalar: Unicode.Scalar) in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
        let first = scalars.firstIndex(where: isWord)!
        var last = scalars.lastIndex(where: isWord)!
        if last + 1 < scalars.count, scalars[last + 1] == "." { last += 1 }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    static func book(seed: UInt64) -> GeneratedBook {
        var generator = Seeded(state: seed)
        var book = GeneratedBook()
        var blocks: [String] = []
        let chapterStyle = CounterStyle.allCases.randomElement(using: &generator)!
        let chapterDecoration = decoration(&generator)
        let label = ["", "", "Canto ", "Episode ", "Stave ", "Letter ", "Fytte ", "Zorbl ", "Kapitola "].randomElement(
            using: &generator)!
        let hasParts = Int.random(in: 0..<10, using: &generator) < 4
        let partStyle = CounterStyle.allCases.randomElement(using: &generator)!
        var partDecoration = decoration(&generator)
        while hasParts && partDecoration == chapterDecoration && partStyle == chapterStyle {
            partDecoration = decoration(&generator)
        }
        let restarts = hasParts && Bool.random(using: &generator)
        var number = 0
        for part in 1...(hasParts ? Int.random(in: 2...4, using: &generator) : 1) {
            var partTitle: String?
            if hasParts {
                let line = partDecoration.before + partStyle.text(part) + partDecoration.after
                blocks.append(line)
                // Titled as the splitter titles parts in capitals ("ONE" is "One"; Roman numerals kept).
                partTitle = Splitter.Builder.partTitle(title(line))
            }
            if restarts { number = 0 }
            for _
                in 0..<(hasParts ? Int.random(in: 3...6, using: &generator) : Int.random(in: 3...20, using: &generator))
            {
                number += 1
                let line = chapterDecoration.before + label + chapterStyle.text(number) + chapterDecoration.after
                blocks.append(line)
                book.titles.append(partTitle.map { "\($0) — \(title(line))" } ?? title(line))
                for _ in 0..<Int.random(in: 2...6, using: &generator) { blocks.append(paragraph(&generator)) }
                // Prose that only looks like headings, inside the chapter.
                switch Int.random(in: 0..<20, using: &generator) {
                case 0..<3:
                    // A line of dialogue.
                    blocks.append("I.")
                    book.lookAlikes.append("I.")
                case 3..<6:
                    // A numbered list, an item per paragraph.
                    for item in 1...4 {
                        let line =
                            "\(item). \(words.randomElement(using: &generator)!.capitalized) \(words.randomElement(using: &generator)!)"
                        blocks.append(line)
                        book.lookAlikes.append(line)
                    }
                case 6..<9:
                    // Numbered verses.
                    for verse in 1...4 {
                        blocks.append(String(verse))
                        book.lookAlikes.append(String(verse))
                        blocks.append(sentence(&generator, words: 5...12))
                    }
                default:
                    break
                }
                blocks.append(paragraph(&generator))
            }
        }
        book.text = blocks.joined(separator: "\n\n") + "\n"
        return book
    }

    /// Books with heading shapes made up here — random marks around digits, Roman numerals, number
    /// words or letters, with or without a word before them, in parts or not, restarting or not —
    /// and look-alikes inside their chapters: every chapter is found, with its part, and every
    /// look-alike stays text.
    @Test func generatedHeadingShapesAreFoundAndLookAlikesLeftAlone() {
        for seed in UInt64(1)...300 {
            let book = Self.book(seed: seed)
            let result = split(book.text)
            #expect(result.chapters.map(\.title) == book.titles, "seed \(seed):\n\(book.text.prefix(600))")
            let texts = Set(result.items.filter { $0.kind == .paragraph }.map(\.text))
            for line in Set(book.lookAlikes) {
                #expect(texts.contains(line), "seed \(seed): \(line) is not a paragraph")
            }
        }
    }

    /// A modernist novel's shape: episodes headed by a bare number in brackets, counting through the
    /// book, under three parts headed by Roman numerals between dashes.
    @Test func twoKindsOfDecoratedCounterMakePartsAndChapters() {
        var generator = Seeded(state: 7)
        var text = ""
        var episode = 0
        for (part, episodes) in [("I", 3), ("II", 12), ("III", 3)] {
            text += "— \(part) —\n\n"
            for _ in 0..<episodes {
                episode += 1
                text +=
                    "[ \(episode) ]\n\n" + (0..<3).map { _ in Self.paragraph(&generator) }.joined(separator: "\n\n")
                    + "\n\n"
            }
        }
        let result = split(text)
        #expect(result.chapters.count == 18)
        #expect(result.chapters.first?.title == "I — 1")
        #expect(result.chapters[3].title == "II — 4" && result.chapters[3].part == "II")
        #expect(result.chapters.last?.title == "III — 18")
        #expect(
            result.items.first?.kind == .heading && result.items.first?.text == "I",
            "the part's heading without its dashes")
    }

    /// Parts whose chapter numbers start again at one: each chapter keeps its part, so titles stay unique.
    @Test func countersThatRestartUnderPartsGiveParts() {
        var generator = Seeded(state: 11)
        var text = ""
        for part in ["One", "Two", "Three"] {
            text += "* \(part.uppercased()) *\n\n"
            for chapter in 1...4 {
                text +=
                    "\(chapter).\n\n" + (0..<3).map { _ in Self.paragraph(&generator) }.joined(separator: "\n\n")
                    + "\n\n"
            }
        }
        let result = split(text)
        #expect(
            result.chapters.map(\.title)
                == ["One", "Two", "Three"].flatMap { part in (1...4).map { "\(part) — \($0)." } })
        #expect(Set(result.chapters.map(\.title)).count == 12)
    }

    /// Page numbers left in a text made from a PDF count up between paragraphs too, but they cut
    /// sentences in half: they are not chapters.
    @Test func pageNumbersAreNotChapters() {
        var generator = Seeded(state: 3)
        var text = "Chapter 1\n\n"
        for page in 1...12 {
            let paragraph = Self.paragraph(&generator)
            text += paragraph.dropLast() + " and then\n\n\(page)\n\nthe " + Self.paragraph(&generator) + "\n\n"
        }
        let result = split(text)
        #expect(result.chapters.map(\.title) == ["Chapter 1"])
    }

    /// In a book whose chapters are found by their words, a series of numbered sections inside each
    /// chapter is text, not more chapters; the corpus's shape stays as it was.
    @Test func numberedSectionsInsideWordedChaptersStayText() {
        var generator = Seeded(state: 5)
        var text = ""
        for chapter in 1...3 {
            text += "CHAPTER \(HeadingCounter.roman(chapter))\n\n"
            for section in 1...3 {
                text +=
                    "§ \(section)\n\n" + (0..<3).map { _ in Self.paragraph(&generator) }.joined(separator: "\n\n")
                    + "\n\n"
            }
        }
        let result = split(text)
        #expect(result.chapters.map(\.title) == ["CHAPTER I", "CHAPTER II", "CHAPTER III"])
    }

    /// Counters read as headings can be: digits, Roman numerals in either case, number words
    /// (cardinal, ordinal, hyphenated, "the First"), single letters; a title after punctuation.
    @Test func counterLinesReadTheirCounters() {
        func readings(_ line: String) -> [String] {
            CounterLine.readings(of: line).map { "\($0.shape) \($0.kind) \($0.value)\($0.hasTitle ? " titled" : "")" }
                .sorted()
        }
        #expect(readings("~ 12 ~") == ["~ # ~ digits 12"])
        #expect(readings("— XIV —") == ["— # — upperRoman 14"])
        #expect(readings("Canto xii.") == ["canto #. lowerRoman 12"])
        #expect(readings("Stave Twenty-One") == ["stave # words 21"])
        #expect(readings("BOOK THE FIRST") == ["book # words 1"])
        #expect(readings("Part One Hundred and Five") == ["part # words 105"])
        #expect(readings("IV. The Fall of the House") == ["#. … upperRoman 4 titled"])
        #expect(readings("(c)") == ["(#) lowerLetter 3", "(#) lowerRoman 100"])
        #expect(readings("I") == ["# upperLetter 9", "# upperRoman 1"])
        #expect(readings("Three men came.").isEmpty, "a sentence, not a title set apart")
        #expect(readings("XIIII").isEmpty && readings("IXX").isEmpty, "not numerals written the usual way")
        #expect(readings("Twenty-Something").isEmpty)
        #expect(readings(String(repeating: "a ", count: 50)).isEmpty, "too long for a heading")
    }
    /// A long text with no headings found is one chapter, and `plan` and a build say so: the chapter,
    /// its length, `split.headings`, and a pattern for the book's own most frequent heading-like line
    /// (here headings too few words apart to be taken for chapters). The suggested recipe then finds them.
    @Test func aLongBookWhoseChaptersAreNotFoundSaysSo() throws {
        var generator = Seeded(state: 13)
        // ~30,000 words (~2.6 hours at 175 words a minute) under "-- 1 --" lines that come only every
        // ~50 words, too close to be chapters.
        var text = ""
        for section in 1...600 {
            text += "-- \(section) --\n\n" + Self.paragraph(&generator) + "\n\n"
        }
        let project = try TestProject(book: text)
        let plan = try project.forge(["plan", "recipe.json"])
        #expect(plan.status == 0)
        #expect(plan.text.contains("1 chapters"), "\(plan.text)")
        #expect(plan.errors.contains("warning: the book was split into one chapter, \"book\""), "\(plan.errors)")
        #expect(
            plan.errors.contains(
                #"e.g. "split": { "headings": { "chapter": "^(?i)-- +[0-9]+ +--$" } } for lines such as "-- 1 --" (seen 600 times in it)"#
            ), "\(plan.errors)")

        let json = try project.forge(["plan", "recipe.json", "--json"])
        let report = try JSONOutputTests.report(json)
        let warnings = try #require(report["warnings"] as? [[String: Any]])
        #expect(warnings.count == 1 && warnings[0]["field"] as? String == "split.headings")

        // The split stage (a build's first) says it as a JSON warning event, and again in its summary.
        let split = try project.forge(["split", "recipe.json", "--json"])
        let events = split.text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(
            events.contains {
                $0["event"] as? String == "warning" && ($0["message"] as? String)?.contains("one chapter") == true
                    && $0["field"] as? String == "split.headings"
            }, "\(split.text)")
        let process = Process()
        let output = Pipe()
        process.executableURL = ForgeProcess.executable
        process.currentDirectoryURL = project.directory.url
        process.arguments = ["split", "recipe.json"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let summary = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(summary.contains("warning: the book was split into one chapter"), "the summary repeats it: \(summary)")

        // The suggested pattern, put in the recipe, finds the 600 headings.
        try project.write(
            recipe: Fixtures.recipe(
                extra:
                    #""split": { "unit": "paragraph", "maxCharacters": 600, "headings": { "chapter": "^(?i)-- +[0-9]+ +--$" } }"#
            )
            .replacingOccurrences(of: #""split": { "unit": "paragraph", "maxCharacters": 600 },"#, with: ""))
        let fixed = try JSONOutputTests.report(try project.forge(["plan", "recipe.json", "--json"]))
        #expect((fixed["chapters"] as? [Any])?.count == 600)
        #expect((fixed["warnings"] as? [Any])?.isEmpty == true)
    }

    /// Which chapters are suspect: a long single chapter, one far longer than the others, one holding
    /// more than half of a long book; not a long chapter among long ones, nor a short book of one chapter.
    @Test func suspectChaptersAreFarLongerThanTheOthers() {
        let hour = 3_600_000
        func suspects(_ lengths: [Double]) -> [Int] {
            ChapterLengthCheck.suspectChapters(
                lengths.enumerated().map {
                    .init(ordinal: $0.offset + 1, title: "c", durationMs: Int($0.element * Double(hour)))
                }
            ).map(\.ordinal)
        }
        #expect(suspects([11.7, 11.0]) == [1, 2], "two halves of a long book")
        #expect(suspects([2.5]) == [1])
        #expect(suspects([0.01, 3.7]) == [2], "a title page, then the whole book")
        #expect(suspects([1, 1.2, 0.8, 8.4, 1, 1.1]) == [4])
        #expect(suspects([0.6, 0.4, 0.5, 0.6, 1.1, 1, 3.3, 1.9, 1.9, 2]).isEmpty, "a long episode among long ones")
        #expect(suspects([1.5]).isEmpty && suspects([0.5, 0.7]).isEmpty)
    }
}
