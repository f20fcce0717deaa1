// Written directly like its items (ItemTimingsDocument+JSON.swift says why), with JSONEncoder's bytes.
extension ChapterTimingsDocument {
    func encodedLine() throws -> [UInt8] {
        guard !title.utf8.contains(where: { $0 == 0x08 || $0 == 0x0C }),
            !(part ?? "").utf8.contains(where: { $0 == 0x08 || $0 == 0x0C }),
            !audio.utf8.contains(where: { $0 == 0x08 || $0 == 0x0C }),
            !items.contains(where: \.hasEscapeOnlyFoundationWrites)
        else { return try foundationEncodedLine() }
        var json: [UInt8] = []
        json.append(contentsOf: #"{"audio":"#.utf8)
        JSONText.appendQuoted(audio, to: &json)
        json.append(contentsOf: #","chapter":"#.utf8)
        ItemTimingsDocument.append(chapter, to: &json)
        json.append(contentsOf: #","durationMs":"#.utf8)
        ItemTimingsDocument.append(durationMs, to: &json)
        json.append(contentsOf: #","items":["#.utf8)
        for (index, item) in items.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            item.appendJSON(to: &json)
        }
        json.append(contentsOf: "]".utf8)
        if let part {
            json.append(contentsOf: #","part":"#.utf8)
            JSONText.appendQuoted(part, to: &json)
        }
        json.append(contentsOf: #","sampleRate":"#.utf8)
        ItemTimingsDocument.append(sampleRate, to: &json)
        json.append(contentsOf: #","title":"#.utf8)
        JSONText.appendQuoted(title, to: &json)
        json.append(contentsOf: #","version":"#.utf8)
        ItemTimingsDocument.append(version, to: &json)
        json.append(contentsOf: "}\n".utf8)
        return json
    }
}
