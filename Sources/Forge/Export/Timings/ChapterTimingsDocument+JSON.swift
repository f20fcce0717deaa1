// Written like its items (ItemTimingsDocument+JSON.swift says why), with JSONEncoder's bytes.
extension ChapterTimingsDocument {
    func encodedLine() throws -> [UInt8] {
        var json = JSONWriter(
            escaping: ItemTimingsDocument.escaping, capacity: 256 + items.reduce(0) { $0 + 256 + $1.words.count * 96 })
        json.object { chapter in
            chapter.field("audio", audio)
            chapter.field("chapter", self.chapter)
            chapter.field("durationMs", durationMs)
            chapter.array("items") { list in
                for item in items { item.write(to: &list) }
            }
            chapter.field("part", ifPresent: part)
            chapter.field("sampleRate", sampleRate)
            chapter.field("title", title)
            chapter.field("version", version)
        }
        json.newline()
        return json.bytes
    }
}
