import CCMark
import Foundation

/// Markdown, parsed by cmark (CommonMark): ATX (`#`) and setext (`===`) headings, paragraphs,
/// list items and block quotes become blocks; `#`/`##` headings start chapters and deeper ones
/// are section headings. Emphasis, code spans, links and backslash escapes are reduced to their
/// text as CommonMark defines them ("2 * 3" keeps its `*`); code blocks, HTML, comments, images,
/// link reference definitions and YAML front matter are not spoken.
///
/// cmark gives each block's place in the source; each spoken character's offset is then found by
/// matching the block's text against that stretch of the source in order.
package struct MarkdownReader: DocumentReader {
    package init() {}

    package func read(_ text: String, path: String) -> StructuredDocument {
        let scalars = Array(text.unicodeScalars)
        let lines = LineIndex(scalars)
        // Front matter is blanked, not cut, so cmark's line numbers stay the source's.
        var source = scalars
        if let end = Self.frontMatterEnd(lines) {
            for index in 0..<end where source[index] != "\n" { source[index] = " " }
        }
        let bytes = Array(String(scalars: source).utf8)
        guard
            let document = bytes.withUnsafeBufferPointer({ buffer in
                buffer.baseAddress.map {
                    $0.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        cmark_parse_document($0, buffer.count, CMARK_OPT_SOURCEPOS)
                    }
                }
            }) ?? nil
        else {
            return StructuredDocument(path: path, language: nil, title: nil, blocks: [])
        }
        defer { cmark_node_free(document) }

        var blocks: [DocumentBlock] = []
        var rendered: [Unicode.Scalar] = []
        var role: DocumentBlock.Role?
        var block: OpaquePointer?
        var skipping: OpaquePointer?
        let iterator = cmark_iter_new(document)
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if let skipped = skipping {
                if event == CMARK_EVENT_EXIT && skipped == node { skipping = nil }
                continue
            }
            switch (type, event) {
            case (CMARK_NODE_PARAGRAPH, CMARK_EVENT_ENTER), (CMARK_NODE_HEADING, CMARK_EVENT_ENTER):
                block = node
                role =
                    type == CMARK_NODE_HEADING ? .heading(level: Int(cmark_node_get_heading_level(node))) : .paragraph
                rendered = []
            case (CMARK_NODE_PARAGRAPH, CMARK_EVENT_EXIT), (CMARK_NODE_HEADING, CMARK_EVENT_EXIT):
                if let role, let block, rendered.contains(where: { !$0.properties.isWhitespace }) {
                    let start = lines.offset(
                        line: Int(cmark_node_get_start_line(block)), byteColumn: Int(cmark_node_get_start_column(block))
                    )
                    let end = lines.offset(
                        line: Int(cmark_node_get_end_line(block)), byteColumn: Int(cmark_node_get_end_column(block)) + 1
                    )
                    blocks.append(
                        DocumentBlock(
                            role: role, text: rendered,
                            origins: Self.origins(of: rendered, in: scalars, from: start, to: end), elementID: nil))
                }
                block = nil
                role = nil
            case (CMARK_NODE_TEXT, _), (CMARK_NODE_CODE, _):
                if block != nil, let literal = cmark_node_get_literal(node) {
                    rendered += String(cString: literal).unicodeScalars
                }
            case (CMARK_NODE_SOFTBREAK, _), (CMARK_NODE_LINEBREAK, _):
                if block != nil { rendered.append("\n") }
            case (CMARK_NODE_IMAGE, CMARK_EVENT_ENTER):
                // Its alt text describes a picture the listener cannot see.
                skipping = node
            case (CMARK_NODE_LINK, CMARK_EVENT_ENTER) where Self.isAutolink(node):
                // <https://…>: an address, not prose.
                skipping = node
            default:
                break
            }
        }
        return StructuredDocument(path: path, language: nil, title: nil, blocks: blocks)
    }

    /// A link whose text is its own address (`<https://example.com>`, `<me@example.com>`).
    static func isAutolink(_ link: OpaquePointer) -> Bool {
        guard let url = cmark_node_get_url(link).map({ String(cString: $0) }), let child = cmark_node_first_child(link),
            cmark_node_get_type(child) == CMARK_NODE_TEXT, cmark_node_next(child) == nil,
            let text = cmark_node_get_literal(child).map({ String(cString: $0) })
        else { return false }
        return url == text || url == "mailto:" + text
    }

    /// For each rendered scalar, its offset in `source[start..<end]`: the next equal scalar (any
    /// white space for white space), looking a bounded distance ahead so a character the source
    /// spells differently (`&copy;` for ©) costs nothing but an approximate offset.
    static func origins(of rendered: [Unicode.Scalar], in source: [Unicode.Scalar], from start: Int, to end: Int)
        -> [Int]
    {
        let end = min(max(end, start), source.count)
        var cursor = min(start, end)
        var origins: [Int] = []
        origins.reserveCapacity(rendered.count)
        for scalar in rendered {
            let space = scalar.properties.isWhitespace
            var probe = cursor
            let limit = min(end, cursor + 256)
            while probe < limit, !(source[probe] == scalar || (space && source[probe].properties.isWhitespace)) {
                probe += 1
            }
            if probe < limit {
                origins.append(probe)
                cursor = probe + 1
            } else {
                origins.append(min(cursor, max(end - 1, 0)))
            }
        }
        return origins
    }

    /// The offset just past YAML front matter: a first line `---`, through the next `---` line.
    static func frontMatterEnd(_ lines: LineIndex) -> Int? {
        guard lines.count > 1, lines.text(0) == "---" else { return nil }
        for line in 1..<lines.count where lines.text(line) == "---" {
            return lines.range(line).upperBound
        }
        return nil
    }

    /// Where each line starts, to turn cmark's (line, byte column) into scalar offsets.
    struct LineIndex {
        private var starts: [Int] = [0]
        private let scalars: [Unicode.Scalar]

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
            for (index, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(index + 1) }
        }

        var count: Int { starts.count }

        func range(_ line: Int) -> Range<Int> {
            let end = line + 1 < starts.count ? starts[line + 1] - 1 : scalars.count
            return starts[line]..<max(starts[line], end)
        }

        func text(_ line: Int) -> String {
            String(scalars: scalars[range(line)]).trimmingCharacters(in: .whitespaces)
        }

        /// The scalar offset of a 1-based line and 1-based UTF-8 byte column.
        func offset(line: Int, byteColumn: Int) -> Int {
            guard line >= 1, line <= starts.count else { return line < 1 ? 0 : scalars.count }
            var offset = starts[line - 1]
            var bytes = 1
            let end = range(line - 1).upperBound
            while offset < end, bytes < byteColumn {
                bytes += UTF8.width(scalars[offset])
                offset += 1
            }
            return offset
        }
    }
}
