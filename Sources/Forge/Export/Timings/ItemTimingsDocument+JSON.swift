import Foundation

// A long book's every word is written twice by the JSON export (its item's file and its
// chapter's) and once more into a pack: JSONEncoder makes each word's object a dictionary,
// hashing and sorting its keys. ``JSONWriter`` gives JSONEncoder's exact bytes without that
// (`ExportDocumentTests` compares them on real exports).
extension ItemTimingsDocument {
    /// As `JSONEncoder` with sorted keys and unescaped slashes writes exports.
    static let escaping = JSONWriter.Escaping.foundation(escapingSlashes: false)

    func encodedLine() throws -> [UInt8] {
        var json = JSONWriter(escaping: Self.escaping, capacity: 256 + words.count * 96)
        write(to: &json)
        json.newline()
        return json.bytes
    }

    func write(to json: inout JSONWriter) {
        json.object { item in
            item.field("alignment", alignment)
            item.field("audioObject", audioObject)
            item.field("chapter", chapter)
            item.field("endMs", endMs)
            item.field("id", id)
            item.field("kind", kind)
            item.field("ordinal", ordinal)
            item.array("sentences") { list in
                for sentence in sentences {
                    list.object { entry in
                        entry.field("endMs", sentence.endMs)
                        entry.field("firstWord", sentence.firstWord)
                        entry.field("lastWord", sentence.lastWord)
                        entry.field("startMs", sentence.startMs)
                        entry.field("text", sentence.text)
                    }
                }
            }
            item.field("startMs", startMs)
            item.field("text", text)
            item.array("words") { list in
                for word in words {
                    list.object { entry in
                        entry.field("charEnd", word.charEnd)
                        entry.field("charStart", word.charStart)
                        entry.field("confidence", ifPresent: word.confidence)
                        entry.field("endMs", orNull: word.endMs)
                        entry.field("startMs", orNull: word.startMs)
                        entry.field("text", word.text)
                    }
                }
            }
        }
    }
}
