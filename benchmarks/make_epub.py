"""Writes an EPUB 3 of a plain-text book (stdin) to argv[1]: one XHTML content document per
"Chapter N" heading, paragraphs with ids, the book's "--" as &#8212; (XHTML knows no &mdash;: EPUBCheck refused such books as fatal) and a navigation document.
Used by benchmarks/read-epub.sh to time how fast forge reads a long EPUB."""

import html
import re
import sys
import zipfile

text = sys.stdin.read()
chapters = []
title = None
paragraphs = []
for block in re.split(r"\n\s*\n", text):
    block = " ".join(block.split())
    if not block:
        continue
    if re.match(r"^(Chapter \d+|BOOK \w+)$", block):
        if title is not None or paragraphs:
            chapters.append((title or "Opening", paragraphs))
        title, paragraphs = block, []
    else:
        paragraphs.append(block)
chapters.append((title or "Opening", paragraphs))


def xhtml(index, title, paragraphs):
    body = [f'<h1 id="c{index}">{html.escape(title)}</h1>']
    for number, paragraph in enumerate(paragraphs):
        escaped = html.escape(paragraph, quote=False).replace("--", "&#8212;")
        body.append(f'<p id="c{index}p{number}">{escaped}</p>')
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en" xml:lang="en">\n'
        f"<head><title>{html.escape(title)}</title></head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


with zipfile.ZipFile(sys.argv[1], "w") as epub:
    epub.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
    epub.writestr("META-INF/container.xml", '<?xml version="1.0"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>\n', compress_type=zipfile.ZIP_DEFLATED)
    items, spine, nav = [], [], []
    for index, (title, paragraphs) in enumerate(chapters):
        name = f"chapter-{index}.xhtml"
        epub.writestr(f"OEBPS/{name}", xhtml(index, title, paragraphs), compress_type=zipfile.ZIP_DEFLATED)
        items.append(f'<item id="c{index}" href="{name}" media-type="application/xhtml+xml"/>')
        spine.append(f'<itemref idref="c{index}"/>')
        nav.append(f'<li><a href="{name}#c{index}">{html.escape(title)}</a></li>')
    epub.writestr("OEBPS/nav.xhtml", '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body><nav epub:type="toc"><ol>' + "".join(nav) + "</ol></nav></body></html>\n", compress_type=zipfile.ZIP_DEFLATED)
    epub.writestr("OEBPS/book.opf", '<?xml version="1.0" encoding="UTF-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">forge-benchmark</dc:identifier><dc:title>Five Books</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>' + "".join(items) + '</manifest><spine>' + "".join(spine) + "</spine></package>\n", compress_type=zipfile.ZIP_DEFLATED)
