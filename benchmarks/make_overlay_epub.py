"""Writes a synthetic EPUB 3 with media overlays to argv[1]: PARS <par>s (argv[2]) spread over
CHAPTERS content documents (argv[3], default 1), each <par> a span of its document and a tenth of
a second of one silent MP3 (argv[4], made by the caller). Everything else is what epubcheck asks
of a valid EPUB, so its verdict is about the overlays' size alone. Used by
benchmarks/epubcheck-depth.sh to find how many <par>s epubcheck's reading-order check takes."""

import sys
import zipfile

path, pars = sys.argv[1], int(sys.argv[2])
chapters = int(sys.argv[3]) if len(sys.argv) > 3 else 1
audio = sys.argv[4]
per_chapter = pars // chapters


def document(chapter):
    spans = "".join(f'<span id="s{i}">Word {i}. </span>' for i in range(per_chapter))
    return ('<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
            f'<head><title>Chapter {chapter}</title><link rel="stylesheet" type="text/css" href="style.css"/></head><body><p id="top">{spans}</p></body></html>')


def overlay(chapter):
    body = "".join(
        f'<par id="p{i}"><text src="c{chapter}.xhtml#s{i}"/>'
        f'<audio src="silence.mp3" clipBegin="{i / 10:.1f}s" clipEnd="{(i + 1) / 10:.1f}s"/></par>'
        for i in range(per_chapter))
    return ('<?xml version="1.0" encoding="UTF-8"?><smil xmlns="http://www.w3.org/ns/SMIL" '
            'xmlns:epub="http://www.idpf.org/2007/ops" version="3.0"><body>'
            f'<seq id="q" epub:textref="c{chapter}.xhtml#top">{body}</seq></body></smil>')


def package():
    seconds = per_chapter / 10
    items = "".join(
        f'<item id="c{c}" href="c{c}.xhtml" media-type="application/xhtml+xml" media-overlay="m{c}"/>'
        f'<item id="m{c}" href="c{c}.smil" media-type="application/smil+xml"/>' for c in range(chapters))
    spine = "".join(f'<itemref idref="c{c}"/>' for c in range(chapters))
    durations = "".join(f'<meta property="media:duration" refines="#m{c}">{seconds:.1f}s</meta>' for c in range(chapters))
    return ('<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
            'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
            '<dc:identifier id="id">urn:uuid:12345678-1234-1234-1234-123456789012</dc:identifier>'
            '<dc:title>Overlays</dc:title><dc:language>en</dc:language>'
            '<meta property="dcterms:modified">2020-01-01T00:00:00Z</meta>'
            f'<meta property="media:duration">{seconds * chapters:.1f}s</meta>{durations}'
            '<meta property="media:active-class">-epub-media-overlay-active</meta></metadata><manifest>'
            '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
            '<item id="css" href="style.css" media-type="text/css"/>'
            f'<item id="audio" href="silence.mp3" media-type="audio/mpeg"/>{items}</manifest><spine>{spine}</spine></package>')


def navigation():
    entries = "".join(f'<li><a href="c{c}.xhtml">Chapter {c}</a></li>' for c in range(chapters))
    return ('<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml" '
            'xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body>'
            f'<nav epub:type="toc"><ol>{entries}</ol></nav></body></html>')


with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as epub:
    epub.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
    epub.writestr("META-INF/container.xml",
                  '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                  '<rootfiles><rootfile full-path="OEBPS/package.opf" media-type="application/oebps-package+xml"/>'
                  '</rootfiles></container>')
    epub.writestr("OEBPS/package.opf", package())
    epub.writestr("OEBPS/nav.xhtml", navigation())
    epub.writestr("OEBPS/style.css", ".-epub-media-overlay-active { background: yellow; }\n")
    epub.write(audio, "OEBPS/silence.mp3")
    for c in range(chapters):
        epub.writestr(f"OEBPS/c{c}.xhtml", document(c))
        epub.writestr(f"OEBPS/c{c}.smil", overlay(c))
