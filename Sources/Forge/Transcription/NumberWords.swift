/// English number words, as a reader says them: "1811" (a year) is "eighteen eleven", "21" is
/// "twenty one", "3rd" is "third".
enum NumberWords {
    static let ones = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let ordinals = [
        "one": "first", "two": "second", "three": "third", "five": "fifth", "eight": "eighth",
        "nine": "ninth", "twelve": "twelfth",
    ]

    static func spoken(_ number: Int, asYear: Bool = false) -> [String] {
        if asYear, (1100...1999).contains(number) || (2010...2099).contains(number), number % 100 != 0 {
            return below100(number / 100)
                + (number % 100 < 10 ? ["oh"] + below100(number % 100) : below100(number % 100))
        }
        return cardinal(number)
    }

    static func cardinal(_ number: Int) -> [String] {
        if number < 0 { return ["minus"] + cardinal(-number) }
        if number < 100 { return below100(number) }
        if number < 1000 {
            return below100(number / 100) + ["hundred"] + (number % 100 == 0 ? [] : ["and"] + below100(number % 100))
        }
        for (scale, name) in [(1_000_000_000, "billion"), (1_000_000, "million"), (1000, "thousand")]
        where number >= scale {
            let rest = number % scale
            return cardinal(number / scale) + [name] + (rest == 0 ? [] : (rest < 100 ? ["and"] : []) + cardinal(rest))
        }
        return [String(number)]
    }

    static func below100(_ number: Int) -> [String] {
        if number < 20 { return [ones[number]] }
        return [tens[number / 10]] + (number % 10 == 0 ? [] : [ones[number % 10]])
    }

    /// "1st", "22nd", "3rd", "4th" as words.
    static func ordinal(_ key: String) -> [String]? {
        guard key.count >= 3, ["st", "nd", "rd", "th"].contains(String(key.suffix(2))),
            let number = Int(key.dropLast(2))
        else { return nil }
        var words = cardinal(number)
        let last = words.removeLast()
        if let irregular = ordinals[last] {
            words.append(irregular)
        } else if last.hasSuffix("y") {
            words.append(String(last.dropLast()) + "ieth")
        } else {
            words.append(last + "th")
        }
        return words
    }
}
