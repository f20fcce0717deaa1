import Foundation

/// A real book's true chapter list (`Resources/books/*/truth.json`) and how a split is held against
/// it, as `benchmarks/books.py` does: titles compared as words, a chapter's number in its list
/// allowed to stand apart from its title, parts compared likewise.
struct BookTruth: Decodable {
    struct Chapter: Decodable {
        /// Nil: any title (an opening the book leaves untitled).
        var title: String?
        var part: String?
    }

    struct Edition: Decodable {
        var files: [String]
        var chapters: [Chapter]
    }

    var title: String
    var editions: [String: Edition]
    /// The files known to split exactly as the truth says: each must stay so.
    var exact: [String]

    /// The corpus' book folders by name (`345-dracula`).
    static let folders: [String] = {
        let root = Fixtures.packageRoot.appendingPathComponent("Tests/ForgeTests/Resources/books")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter {
            FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/truth.json").path)
        }
        .sorted()
    }()

    /// A book folder and its truth.
    static func book(_ name: String) throws -> (folder: URL, truth: BookTruth) {
        let folder = Fixtures.packageRoot.appendingPathComponent("Tests/ForgeTests/Resources/books/\(name)")
        return (
            folder,
            try JSONDecoder().decode(
                BookTruth.self, from: Data(contentsOf: folder.appendingPathComponent("truth.json")))
        )
    }

    /// How many of `expected` are found in order in `found` (a longest common subsequence).
    static func matched(_ expected: [Chapter], _ found: [(title: String, part: String?)]) -> Int {
        // Each title read once both ways: the comparison below runs for every pair.
        let expectedReadings = expected.map { (title: $0.title.map(readings), part: $0.part.map(readings)) }
        let foundReadings = found.map { (title: readings($0.title), part: $0.part.map(readings)) }
        func same(_ chapter: Int, _ other: Int) -> Bool {
            let (wanted, seen) = (expectedReadings[chapter], foundReadings[other])
            guard wanted.title.map({ sameReadings($0, seen.title) }) ?? true else { return false }
            switch (wanted.part, seen.part) {
            case (nil, nil): return true
            case (let wantedPart?, let seenPart?): return sameReadings(wantedPart, seenPart)
            default: return false
            }
        }
        var previous = [Int](repeating: 0, count: found.count + 1)
        for chapter in expected.indices {
            var current = [Int](repeating: 0, count: found.count + 1)
            for other in found.indices {
                current[other + 1] =
                    same(chapter, other) ? previous[other] + 1 : max(previous[other + 1], current[other])
            }
            previous = current
        }
        return previous[found.count]
    }

    /// A title's words with an opening ordinal read as a number ("Chapter the First"), and as a word
    /// ("The First of the Three Spirits"): a found title is the expected one if any two agree.
    static func readings(_ title: String) -> [[String]] {
        [words(title, ordinals: true), words(title, ordinals: false)]
    }

    static func sameReadings(_ expected: [[String]], _ found: [[String]]) -> Bool {
        expected.contains { e in found.contains { f in sameWords(e, f) } }
    }

    static func sameWords(_ e: [String], _ f: [String]) -> Bool {
        if e.joined() == f.joined() { return true }
        for (a, b) in [(e, f), (f, e)] where a.count > 1 && a[0].allSatisfy(\.isNumber) {
            if a.dropFirst().joined() == b.joined() { return true }
        }
        guard !e.isEmpty, f.count >= e.count, f.count - e.count <= 2 else { return false }
        var position = 0
        for word in f where position < e.count && word == e[position] { position += 1 }
        return position == e.count
    }

    static let labels: Set<String> = [
        "chapter", "chap", "stave", "book", "part", "letter", "adventure", "volume", "vol", "act", "canto", "the",
    ]

    /// Lower-case words; a leading label left out; a leading number (Roman, a word or digits) as digits.
    static func words(_ title: String, ordinals: Bool = true) -> [String] {
        let folded = title.lowercased().replacingOccurrences(of: "’", with: "").replacingOccurrences(of: "'", with: "")
        var out: [String] = []
        let tens = ["twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70]
        var pending: Int?
        for word in folded.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init) {
            if (out.isEmpty && labels.contains(word)) || ["the", "a", "an"].contains(word) { continue }
            // A number in two words at the start: "Twenty-One" is 21.
            if out.isEmpty, pending == nil, let ten = tens[word] {
                pending = ten
                continue
            }
            if let ten = pending {
                pending = nil
                if let unit = number(word), unit < 10 {
                    out.append(String(ten + unit))
                    continue
                }
                out.append(String(ten))
            }
            if out.isEmpty, let value = number(word), ordinals || !ordinalWords.contains(word) {
                out.append(String(value))
            } else {
                out.append(word)
            }
        }
        if let ten = pending { out.append(String(ten)) }
        return out
    }

    static let ordinalWords = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    ]

    static func number(_ word: String) -> Int? {
        let words = [
            "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
        ]
        if let index = words.firstIndex(of: word) { return index + 1 }
        if let index = ordinalWords.firstIndex(of: word) { return index + 1 }
        let values: [Character: Int] = ["i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000]
        guard !word.isEmpty, word.count <= 9, word.allSatisfy({ values[$0] != nil }) else { return nil }
        let digits = word.map { values[$0]! }
        let value = zip(digits, digits.dropFirst() + [0]).reduce(0) { $0 + ($1.0 < $1.1 ? -$1.0 : $1.0) }
        // Only a numeral as written ("mill" is a word, not 1099).
        let numerals: [(Int, String)] = [
            (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
            (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
        ]
        var rest = value
        var written = ""
        for (amount, numeral) in numerals {
            while rest >= amount {
                written += numeral
                rest -= amount
            }
        }
        return written == word ? value : nil
    }
}
