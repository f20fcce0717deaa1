import Foundation
import Testing

@testable import Forge

/// Character references read as browsers read them, checked against html5lib-tests' tokenizer cases.
@Suite struct CharacterReferenceTests {
    static let cases: [(input: String, expected: [Unicode.Scalar])] = {
        let url = Fixtures.packageRoot.appendingPathComponent(
            "Tests/ForgeTests/Resources/html5lib-character-references.tsv")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            let expected = parts[1].split(separator: " ").compactMap {
                UInt32($0, radix: 16).flatMap(Unicode.Scalar.init)
            }
            return (String(parts[0]), expected)
        }
    }()

    @Test func everyHTML5libReferenceInTextReadsAsABrowserReadsIt() throws {
        #expect(Self.cases.count > 4000, "the html5lib cases are missing")
        var failures: [String] = []
        for (input, expected) in Self.cases {
            // Markers around the case keep a block even when it decodes to white space alone.
            let document = try HTMLReader(mode: .html).read("<p>[" + input + "]</p>", path: "case.html")
            let text = Array(document.blocks.first?.text ?? [])
            if text != ["["] + expected + ["]"] {
                failures.append("\(input) → \(String(String.UnicodeScalarView(text)).debugDescription)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.cases.count) cases differ: \(failures.prefix(20))")
    }

    @Test func aTitleHasItsReferencesDecodedAndAttributesKeepAmbiguousAmpersands() throws {
        let document = try HTMLReader(mode: .html).read(
            #"<html><head><title>Pride &amp; Prejudice &copy 1813</title></head><body><p id="a&notit">Text &not=x</p></body></html>"#,
            path: "book.html")
        #expect(document.title == "Pride & Prejudice © 1813")
        #expect(
            document.blocks.first?.elementID == "a&notit",
            "in an attribute, a legacy name before a letter stays as written")
        #expect(String(String.UnicodeScalarView(document.blocks.first?.text ?? [])) == "Text ¬=x")
    }
}
