import Foundation
import Testing

@testable import Forge

/// The one hand-written JSON writer: its strings and numbers are exactly what JSONEncoder writes
/// (with and without escaped slashes), and its canonical escapes exactly those content keys were
/// always hashed from, whatever the text.
@Suite struct JSONWriterTests {
    /// Every control character, both slashes, quotes, DEL, accents, emoji and a line separator,
    /// alone and in random strings.
    static let texts: [String] = {
        var texts = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["/", "\\", "\"", "\u{7F}", "é", "👩‍👩‍👧", "\u{2028}", "", "plain text", "a/b\\c\"d\u{08}e\u{0C}f"]
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ab /\\\"\u{08}\u{0C}\n\t\u{01}\u{1F}é漢😀\u{7F}".unicodeScalars)
        for _ in 0..<200 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                text.append(alphabet.randomElement(using: &generator)!)
            }
            texts.append(String(text))
        }
        return texts
    }()

    @Test(arguments: [true, false])
    func stringsAreWhatJSONEncoderWrites(escapingSlashes: Bool) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = escapingSlashes ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
        for text in Self.texts {
            var json = JSONWriter(escaping: .foundation(escapingSlashes: escapingSlashes))
            json.object { $0.field("text", text) }
            #expect(json.bytes == Array(try encoder.encode(["text": text])), "\(text.debugDescription)")
        }
    }

    @Test func canonicalEscapesAreTheContentKeysOwn() throws {
        for text in Self.texts {
            let quoted = JSONWriter.quoted(text)
            // RFC 8259's least: only quotes, backslashes and controls, \n \r \t by name, the rest \u00xx.
            var expected = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": expected += "\\\""
                case "\\": expected += "\\\\"
                case "\n": expected += "\\n"
                case "\r": expected += "\\r"
                case "\t": expected += "\\t"
                case "\u{00}"..."\u{1F}": expected += String(format: "\\u%04x", scalar.value)
                default: expected.unicodeScalars.append(scalar)
                }
            }
            #expect(quoted == expected + "\"", "\(text.debugDescription)")
            #expect(try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String] == [text])
        }
    }

    @Test func nestingNumbersAndOptionalsAreJSONEncodersBytes() throws {
        struct Entry: Encodable {
            var a: Int
            var b: Double?
            var c: [[Int]]
            var d: String?
            var e: Bool
        }
        let entries = [
            Entry(a: -12, b: 0.25, c: [[1, 2], []], d: nil, e: true),
            Entry(a: 0, b: nil, c: [], d: "x/y", e: false),
            Entry(a: Int.max, b: 1e20, c: [[-1]], d: "", e: true),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var json = JSONWriter(escaping: .foundation(escapingSlashes: true))
        json.array { list in
            for entry in entries {
                list.object { object in
                    object.field("a", entry.a)
                    object.field("b", ifPresent: entry.b)
                    object.array("c") { rows in
                        for row in entry.c { rows.array { cells in for cell in row { cells.value(cell) } } }
                    }
                    object.field("d", ifPresent: entry.d)
                    object.field("e", entry.e)
                }
            }
        }
        #expect(json.text == String(decoding: try encoder.encode(entries), as: UTF8.self))
    }
}
