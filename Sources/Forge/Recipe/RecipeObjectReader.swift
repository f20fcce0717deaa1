/// Reads one JSON object of a recipe against its schema: refuses unknown keys (with a
/// suggestion) and values of the wrong type or range, naming the JSON path of each.
///
/// `Key` is the schema: the enum of keys the settings type read from this object declares
/// (`SplitSettings.RecipeKey`, …), so a key is written once, and a misspelt one does not compile.
struct RecipeObjectReader<Key: RawRepresentable & CaseIterable> where Key.RawValue == String {
    let file: String
    let path: String
    private let members: [String: JSONValue]

    /// - Parameter excluding: keys of `Key` this object may not have (the narrator's `voice` has a
    ///   `fallback`, a cast member's voice does not).
    init(_ value: JSONValue, file: String, path: String, excluding: [Key] = []) throws(RecipeError) {
        guard case .object(let pairs) = value else {
            throw .wrongType(file: file, path: path, expected: "an object", found: value.summary)
        }
        let allowedKeys = Key.allCases.map(\.rawValue).filter { name in !excluding.contains { $0.rawValue == name } }
        for pair in pairs where !allowedKeys.contains(pair.key) {
            let suggestion = EditDistance.suggestions(for: pair.key, among: allowedKeys, limit: 1).first
            throw .unknownKey(file: file, path: path, key: pair.key, suggestion: suggestion, allowed: allowedKeys)
        }
        self.file = file
        self.path = path
        self.members = Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    func fieldPath(_ key: Key) -> String { RecipeError.join(path, key.rawValue) }

    func value(_ key: Key) -> JSONValue? {
        guard let value = members[key.rawValue], value != .null else { return nil }
        return value
    }

    /// The object under `key`, read against the keys `Member` declares; nil when absent.
    func object<Member>(_ key: Key, keys: Member.Type) throws(RecipeError) -> RecipeObjectReader<Member>? {
        guard let value = value(key) else { return nil }
        return try RecipeObjectReader<Member>(value, file: file, path: fieldPath(key))
    }

    /// A number from 0 to 1 (a rate), or nil when absent.
    func fraction(_ key: Key) throws(RecipeError) -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value else {
            throw .wrongType(file: file, path: fieldPath(key), expected: "a number from 0 to 1", found: value.summary)
        }
        guard (0...1).contains(number) else {
            throw .invalidValue(
                file: file, path: fieldPath(key), found: value.summary, allowed: "a number from 0 to 1 (0.1 is 10%)")
        }
        return number
    }

    /// A number in `range` (decibels, LUFS), or `fallback` when absent.
    func number(_ key: Key, in range: ClosedRange<Double>, default fallback: Double?, unit: String) throws(RecipeError)
        -> Double?
    {
        guard let value = value(key) else { return fallback }
        let expected = "a number from \(range.lowerBound) to \(range.upperBound) \(unit)"
        guard case .number(let number) = value else {
            throw .wrongType(file: file, path: fieldPath(key), expected: expected, found: value.summary)
        }
        guard range.contains(number) else {
            throw .invalidValue(file: file, path: fieldPath(key), found: value.summary, allowed: expected)
        }
        return number
    }

    func boolean(_ key: Key, default fallback: Bool) throws(RecipeError) -> Bool {
        guard let value = value(key) else { return fallback }
        guard case .bool(let flag) = value else {
            throw .wrongType(file: file, path: fieldPath(key), expected: "true or false", found: value.summary)
        }
        return flag
    }

    /// A list of names from a closed set, e.g. `["json", "vtt"]`; nil when absent.
    func choices<Choice: RawRepresentable & CaseIterable>(_ key: Key) throws(RecipeError) -> [Choice]?
    where Choice.RawValue == String {
        guard let value = value(key) else { return nil }
        let path = fieldPath(key)
        let names = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        guard case .array(let elements) = value else {
            throw .wrongType(file: file, path: path, expected: "a list of \(names)", found: value.summary)
        }
        var result: [Choice] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let name) = element, let choice = Choice(rawValue: name.lowercased()) else {
                throw .invalidValue(file: file, path: "\(path)[\(index)]", found: element.summary, allowed: names)
            }
            if !result.contains(where: { $0.rawValue == choice.rawValue }) { result.append(choice) }
        }
        return result
    }

    func string(_ key: Key) throws(RecipeError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            throw .wrongType(file: file, path: fieldPath(key), expected: "a string", found: value.summary)
        }
        return text
    }

    /// An array of non-empty strings; empty when the key is absent.
    func strings(_ key: Key) throws(RecipeError) -> [String] {
        guard let value = value(key) else { return [] }
        guard case .array(let entries) = value else {
            throw .wrongType(file: file, path: fieldPath(key), expected: "an array of strings", found: value.summary)
        }
        var result: [String] = []
        for (index, entry) in entries.enumerated() {
            guard case .string(let text) = entry, !text.isEmpty else {
                throw .wrongType(
                    file: file, path: "\(fieldPath(key))[\(index)]", expected: "a non-empty string",
                    found: entry.summary)
            }
            result.append(text)
        }
        return result
    }

    func nonEmptyString(_ key: Key, default fallback: String) throws(RecipeError) -> String {
        guard let text = try string(key) else { return fallback }
        if text.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .invalidValue(
                file: file, path: fieldPath(key), found: "an empty string", allowed: "a non-empty string")
        }
        return text
    }

    func integer(_ key: Key, in range: ClosedRange<Int>, default fallback: Int, unit: String = "") throws(RecipeError)
        -> Int
    {
        guard let value = value(key) else { return fallback }
        let expected = "an integer from \(range.lowerBound) to \(range.upperBound)\(unit.isEmpty ? "" : " " + unit)"
        guard case .number(let number) = value else {
            throw .wrongType(file: file, path: fieldPath(key), expected: expected, found: value.summary)
        }
        guard number == number.rounded(), let integer = Int(exactly: number) else {
            throw .wrongType(file: file, path: fieldPath(key), expected: expected, found: value.summary)
        }
        guard range.contains(integer) else {
            throw .invalidValue(file: file, path: fieldPath(key), found: value.summary, allowed: expected)
        }
        return integer
    }

    func integer(_ key: Key, oneOf allowed: [Int], default fallback: Int, unit: String = "") throws(RecipeError) -> Int
    {
        guard let value = value(key) else { return fallback }
        let list = allowed.map(String.init).joined(separator: ", ") + (unit.isEmpty ? "" : " " + unit)
        guard case .number(let number) = value, let integer = Int(exactly: number) else {
            throw .wrongType(file: file, path: fieldPath(key), expected: "one of \(list)", found: value.summary)
        }
        guard allowed.contains(integer) else {
            throw .invalidValue(file: file, path: fieldPath(key), found: value.summary, allowed: list)
        }
        return integer
    }

    func choice<Choice: RawRepresentable & CaseIterable>(_ key: Key, default fallback: Choice) throws(RecipeError)
        -> Choice
    where Choice.RawValue == String {
        guard let text = try string(key) else { return fallback }
        let names = Choice.allCases.map(\.rawValue)
        guard let choice = Choice(rawValue: text) ?? Choice(rawValue: text.lowercased()) else {
            var allowed = names.map { "\"\($0)\"" }.joined(separator: ", ")
            if let suggestion = EditDistance.suggestions(for: text, among: names, limit: 1).first {
                allowed += " (did you mean \"\(suggestion)\"?)"
            }
            throw .invalidValue(
                file: file, path: fieldPath(key), found: JSONValue.string(text).summary, allowed: allowed)
        }
        return choice
    }
}
