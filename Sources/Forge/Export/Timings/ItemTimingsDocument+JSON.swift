import Foundation

// A 50-hour book has 600k words, each written twice by the JSON export (its item's file and its
// chapter's) and once more into a pack: JSONEncoder spends ~3 µs on each word's object (a
// dictionary, hashing and sorting its keys), which made `forge export --format json` 2.4× the
// CPU of the hand-written writer it replaced. These writers give JSONEncoder's exact bytes (keys
// in sorted order, the same number forms; `ExportDocumentTests` compares them on real exports)
// and fall back to it for the one thing they do not reproduce, a backspace or form feed in a text.
extension ItemTimingsDocument {
    func encodedLine() throws -> [UInt8] {
        guard !hasEscapeOnlyFoundationWrites else { return try foundationEncodedLine() }
        var json: [UInt8] = []
        json.reserveCapacity(256 + words.count * 96)
        appendJSON(to: &json)
        json.append(UInt8(ascii: "\n"))
        return json
    }

    /// Whether a text holds U+0008 or U+000C, which JSONEncoder writes as `\b` and `\f` and
    /// ``JSONText`` as `\u0008` and `\u000c`.
    var hasEscapeOnlyFoundationWrites: Bool {
        func has(_ text: String) -> Bool { text.utf8.contains { $0 == 0x08 || $0 == 0x0C } }
        return has(id) || has(kind) || has(text) || has(audioObject) || has(alignment)
            || sentences.contains { has($0.text) } || words.contains { has($0.text) }
    }

    func appendJSON(to json: inout [UInt8]) {
        json.append(contentsOf: #"{"alignment":"#.utf8)
        JSONText.appendQuoted(alignment, to: &json)
        json.append(contentsOf: #","audioObject":"#.utf8)
        JSONText.appendQuoted(audioObject, to: &json)
        json.append(contentsOf: #","chapter":"#.utf8)
        Self.append(chapter, to: &json)
        json.append(contentsOf: #","endMs":"#.utf8)
        Self.append(endMs, to: &json)
        json.append(contentsOf: #","id":"#.utf8)
        JSONText.appendQuoted(id, to: &json)
        json.append(contentsOf: #","kind":"#.utf8)
        JSONText.appendQuoted(kind, to: &json)
        json.append(contentsOf: #","ordinal":"#.utf8)
        Self.append(ordinal, to: &json)
        json.append(contentsOf: #","sentences":["#.utf8)
        for (index, sentence) in sentences.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: #"{"endMs":"#.utf8)
            Self.append(sentence.endMs, to: &json)
            json.append(contentsOf: #","firstWord":"#.utf8)
            Self.append(sentence.firstWord, to: &json)
            json.append(contentsOf: #","lastWord":"#.utf8)
            Self.append(sentence.lastWord, to: &json)
            json.append(contentsOf: #","startMs":"#.utf8)
            Self.append(sentence.startMs, to: &json)
            json.append(contentsOf: #","text":"#.utf8)
            JSONText.appendQuoted(sentence.text, to: &json)
            json.append(UInt8(ascii: "}"))
        }
        json.append(contentsOf: #"],"startMs":"#.utf8)
        Self.append(startMs, to: &json)
        json.append(contentsOf: #","text":"#.utf8)
        JSONText.appendQuoted(text, to: &json)
        json.append(contentsOf: #","words":["#.utf8)
        for (index, word) in words.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: #"{"charEnd":"#.utf8)
            Self.append(word.charEnd, to: &json)
            json.append(contentsOf: #","charStart":"#.utf8)
            Self.append(word.charStart, to: &json)
            if let confidence = word.confidence {
                json.append(contentsOf: #","confidence":"#.utf8)
                Self.append(confidence, to: &json)
            }
            json.append(contentsOf: #","endMs":"#.utf8)
            Self.append(word.endMs, to: &json)
            json.append(contentsOf: #","startMs":"#.utf8)
            Self.append(word.startMs, to: &json)
            json.append(contentsOf: #","text":"#.utf8)
            JSONText.appendQuoted(word.text, to: &json)
            json.append(UInt8(ascii: "}"))
        }
        json.append(contentsOf: "]}".utf8)
    }

    static func append(_ number: Int, to json: inout [UInt8]) {
        json.append(contentsOf: String(number).utf8)
    }

    static func append(_ number: Int?, to json: inout [UInt8]) {
        if let number { append(number, to: &json) } else { json.append(contentsOf: "null".utf8) }
    }

    /// As JSONEncoder writes a Double: an integral value without a fraction ("1", not "1.0").
    static func append(_ number: Double, to json: inout [UInt8]) {
        if number == number.rounded(), abs(number) < 1e15 {
            append(Int(number), to: &json)
        } else {
            json.append(contentsOf: number.description.utf8)
        }
    }
}
