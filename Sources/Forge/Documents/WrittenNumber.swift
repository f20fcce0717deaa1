import Foundation

/// English numbers written as words, as books number their chapters: "Twenty-One", "FORTY SEVEN",
/// "the Third", "Ninety-nine". Up to ninety-nine, and ordinals to the twelfth.
enum WrittenNumber {
    static let units: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
        "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
        "eighteen": 18, "nineteen": 19,
    ]
    static let tens: [String: Int] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    ]
    static let ordinals: [String: Int] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
        "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12,
    ]

    /// The number `word` writes ("twenty-one", "Forty", "third"), or nil.
    static func value(of word: some StringProtocol) -> Int? {
        let folded = word.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".:,"))
        if let unit = units[folded] ?? tens[folded] ?? ordinals[folded] { return unit }
        let parts = folded.split(separator: "-")
        guard parts.count == 2, let ten = tens[String(parts[0])], let unit = units[String(parts[1])], unit < 10
        else { return nil }
        return ten + unit
    }
}
