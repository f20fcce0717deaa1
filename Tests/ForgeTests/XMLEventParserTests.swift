import Foundation
import Testing

@testable import Forge

/// libxml2 reads XHTML; Forge finds where in the source each scalar of text came from, which the
/// EPUB export needs to put its spans around the words it spoke.
@Suite struct XMLEventParserTests {
    /// Every event, as a handler sees it.
    struct Recorder: XMLEventHandler {
        var starts: [(name: String, attributes: [String: String], offset: Int, isEmpty: Bool)] = []
        var ends: [String] = []
        var text: [Unicode.Scalar] = []
        var origins: [Int] = []

        mutating func startElement(_ name: String, attributes: [String: String], offset: Int, isEmpty: Bool) {
            starts.append((name, attributes, offset, isEmpty))
        }

        mutating func endElement(_ name: String) { ends.append(name) }

        mutating func text(_ scalar: Unicode.Scalar, origin: Int) {
            text.append(scalar)
            origins.append(origin)
        }
    }

    static func parse(_ source: String, htmlEntities: Bool = true) throws -> Recorder {
        var recorder = Recorder()
        try XMLEventParser(decodesHTMLEntities: htmlEntities).parse(source, into: &recorder)
        return recorder
    }

    @Test func eachScalarOfTextKeepsTheOffsetItCameFrom() throws {
        let source = """
            <?xml version="1.0" encoding="ISO-8859-1"?>\r
            <!DOCTYPE html [ <!ENTITY house "Longbourn"> ]>\r
            <html xmlns="http://www.w3.org/1999/xhtml"><body><!-- a comment -->\r
            <p>Café &amp; tea&mdash;at &house;&#233;&#x2014;<br/>done<?pi x?><![CDATA[ <raw> & ]]>é</p>\r
            <p>ünïcode 𝄞 <em>inside</em> after</p></body></html>
            """
        let recorded = try Self.parse(source)
        let scalars = Array(source.unicodeScalars)
        let text = String(String.UnicodeScalarView(recorded.text))
        #expect(
            text == "\nCafé & tea—at Longbourné—done <raw> & é\nünïcode 𝄞 inside after",
            "CR LF read as LF, references and CDATA decoded")
        #expect(recorded.origins == recorded.origins.sorted(), "offsets go forward")
        for (scalar, origin) in zip(recorded.text, recorded.origins) {
            let found = scalars[origin]
            // A scalar is where it was written, or it came from a reference starting there.
            #expect(found == scalar || found == "&", "\(scalar) at \(origin) is \(found)")
        }
        // The reference's scalars point at its "&".
        let dash = try #require(recorded.text.firstIndex(of: "—"))
        #expect(
            String(String.UnicodeScalarView(scalars[recorded.origins[dash]..<(recorded.origins[dash] + 7)]))
                == "&mdash;")
        let house = try #require(recorded.text.firstIndex(of: "L"))
        #expect(String(String.UnicodeScalarView(scalars[recorded.origins[house]...].prefix(7))) == "&house;")
        // Each start tag's offset is its "<".
        for start in recorded.starts {
            #expect(
                String(String.UnicodeScalarView(scalars[start.offset...].prefix(start.name.unicodeScalars.count + 1)))
                    == "<" + start.name)
        }
        #expect(recorded.starts.map(\.name) == ["html", "body", "p", "br", "p", "em"])
        #expect(recorded.starts.map(\.isEmpty) == [false, false, false, true, false, false])
        #expect(recorded.ends == ["p", "em", "p", "body", "html"], "an empty element has no end event")
    }

    @Test func attributeValuesAreDecodedAsXMLReadsThem() throws {
        let recorded = try Self.parse(
            #"<html><p id="a&amp;b" title="caf&eacute; &mdash; x&#10;y" class='one"# + "\t"
                + #"two' epub:type="note">t</p></html>"#)
        let attributes = try #require(recorded.starts.last?.attributes)
        #expect(attributes["id"] == "a&b")
        #expect(attributes["title"] == "café — x\ny", "an HTML name, and a character reference kept as written")
        #expect(attributes["class"] == "one two", "a tab is a space")
        #expect(attributes["epub:type"] == "note", "an undeclared prefix is accepted, as readers do")
    }

    @Test func declaredEntitiesCannotGrowWithoutBound() throws {
        // Nested: one level only, so "&b;" stays unexpanded inside "c".
        let nested = try Self.parse(#"<!DOCTYPE p [ <!ENTITY a "x"> <!ENTITY c "&a;&a;"> ]><p>&a;[&c;]</p>"#)
        #expect(String(String.UnicodeScalarView(nested.text)) == "x[&a;&a;]")
        // 1,000 scalars referenced 2,000 times is 2 MB: refused past 1 MB.
        let laughs =
            "<!DOCTYPE p [ <!ENTITY lol \"\(String(repeating: "lol ", count: 250))\"> ]><p>\(String(repeating: "&lol;", count: 2_000))</p>"
        #expect { try Self.parse(laughs) } throws: {
            ($0 as? XMLParseFailure)?.message.contains("more than 1 MB") == true
        }
        // An external entity is never read.
        let folder = try TemporaryDirectory("secret")
        let secret = try folder.write("secret.txt", "THE-SECRET")
        #expect {
            try Self.parse("<!DOCTYPE p [ <!ENTITY leak SYSTEM \"file://\(secret.path)\"> ]><p>&leak;</p>")
        } throws: {
            ($0 as? XMLParseFailure)?.message == "&leak; refers to an external entity, which Forge never reads"
        }
    }

    @Test func htmlNamesAreDecodedOnlyWhenAsked() throws {
        #expect(String(String.UnicodeScalarView(try Self.parse("<p>a&nbsp;b</p>").text)) == "a\u{A0}b")
        #expect(throws: XMLParseFailure.self) { try Self.parse("<p>a&nbsp;b</p>", htmlEntities: false) }
    }
}
