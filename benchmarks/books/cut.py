#!/usr/bin/env python3
"""Cuts a real book down to a fixture small enough to commit, keeping what decides its chapters.

Every heading, contents list, title page, licence line and short paragraph stays as it is, byte for
byte; a long paragraph of prose keeps its first and last line (HTML: its first and last words), and
of a run of long paragraphs only the first three stay. Encodings, line ends, anchors and ids are
untouched, so the cut book has the chapter list of the whole one (`books.sh --check-cuts` says so).

    cut.py book.txt out.txt      plain text in any encoding
    cut.py book.htm out.htm      HTML or XHTML
    cut.py book.epub out.epub    every XHTML document of the EPUB; images are left out
"""
import html.parser
import io
import re
import sys
import zipfile

PROSE_RUN = 4


def cut_text(data: bytes) -> bytes:
    lines = data.split(b"\n")
    out, paragraph, run = [], [], 0

    def flush():
        nonlocal paragraph, run
        if not paragraph:
            return
        if len(paragraph) < 4 or sum(1 for line in paragraph if is_prose(line)) < len(paragraph) - 1:
            out.extend(paragraph)
            run = 0
        else:
            run += 1
            if run <= PROSE_RUN:
                out.extend([paragraph[0], paragraph[-1]])
            elif out and out[-1].strip() == b"":
                # The paragraph goes, and the blank line before it with it.
                out.pop()
        paragraph = []

    for line in lines:
        if line.strip() == b"":
            flush()
            out.append(line)
        else:
            paragraph.append(line)
    flush()
    return b"\n".join(out)


def is_prose(line: bytes) -> bool:
    """A line of running text: long, not indented as contents and verse are, no page number at its end."""
    stripped = line.strip()
    indented = line[:3] in (b"   ", b"\t") or line.startswith(b"\t")
    return len(stripped) >= 50 and not indented and not stripped[-1:].isdigit()


class HTMLCutter(html.parser.HTMLParser):
    """Re-emits markup as read, with long paragraphs' text cut to their ends."""

    KEEP_HEAD, KEEP_TAIL, PROSE = 120, 60, 100

    def __init__(self, targets):
        super().__init__(convert_charrefs=False)
        self.targets = targets
        self.out = []
        self.paragraph = None  # tokens of the open <p>: (kind, raw)
        self.depth = 0
        self.run = 0

    def emit(self, kind, raw):
        if self.paragraph is not None:
            self.paragraph.append((kind, raw))
        else:
            self.out.append(raw)

    def handle_starttag(self, tag, attrs):
        raw = self.get_starttag_text()
        if tag == "p":
            if self.paragraph is not None and self.depth == 1:
                self.close_paragraph()
            if self.paragraph is None:
                self.paragraph, self.depth = [("start", raw)], 1
                return
            self.depth += 1
        self.emit(self.kind(attrs), raw)

    def kind(self, attrs):
        """An element a link in the document points at is an anchor: it is never cut out; a paragraph
        with a link in it (a contents entry) is kept whole."""
        if any(k == "href" for k, _ in attrs):
            return "link"
        return "anchor" if any(k in ("id", "name") and v in self.targets for k, v in attrs) else "tag"

    def handle_startendtag(self, tag, attrs):
        raw = self.get_starttag_text()
        self.emit(self.kind(attrs), raw)

    def handle_endtag(self, tag):
        raw = f"</{tag}>"
        if tag == "p" and self.paragraph is not None:
            self.depth -= 1
            if self.depth == 0:
                self.paragraph.append(("end", raw))
                self.close_paragraph()
                return
        self.emit("tag", raw)

    def handle_data(self, data):
        self.emit("data", data)

    def handle_entityref(self, name):
        self.emit("data", f"&{name};")

    def handle_charref(self, name):
        self.emit("data", f"&#{name};")

    def handle_comment(self, data):
        self.emit("tag", f"<!--{data}-->")

    def handle_decl(self, decl):
        self.emit("tag", f"<!{decl}>")

    def handle_pi(self, data):
        self.emit("tag", f"<?{data}>")

    def unknown_decl(self, data):
        self.emit("tag", f"<![{data}]>")

    def close_paragraph(self):
        tokens, self.paragraph, self.depth = self.paragraph, None, 0
        text = sum(len(raw) for kind, raw in tokens if kind == "data")
        if text <= self.PROSE or any(kind == "link" for kind, _ in tokens):
            self.out.extend(raw for _, raw in tokens)
            self.run = 0
            return
        self.run += 1
        has_anchor = any(kind == "anchor" for kind, _ in tokens)
        if self.run > PROSE_RUN and not has_anchor:
            return
        if text <= self.KEEP_HEAD + self.KEEP_TAIL:
            self.out.extend(raw for _, raw in tokens)
            return
        # Keep the first and last characters of the text; every tag stays.
        kept, seen = [], 0
        for kind, raw in tokens:
            if kind != "data":
                kept.append(raw)
                continue
            start, end = seen, seen + len(raw)
            seen = end
            pieces = []
            if start < self.KEEP_HEAD:
                pieces.append(cut_at_word(raw[: self.KEEP_HEAD - start], head=True))
            if end > text - self.KEEP_TAIL:
                pieces.append(cut_at_word(raw[max(0, text - self.KEEP_TAIL - start):], head=False))
            kept.append(" ".join(p for p in pieces if p))
        self.out.extend(kept)

    def result(self):
        if self.paragraph is not None:
            self.close_paragraph()
        return "".join(self.out)


def cut_at_word(text, head):
    """Text cut where a word ends (head) or starts (tail), never inside an entity."""
    if head:
        cut = text.rfind(" ")
        piece = text if cut < 0 else text[:cut]
        amp = piece.rfind("&")
        return piece if amp < 0 or ";" in piece[amp:] else piece[:amp]
    cut = text.find(" ")
    piece = text if cut < 0 else text[cut + 1:]
    semi = piece.find(";")
    amp = piece.find("&")
    return piece[semi + 1:] if semi >= 0 and (amp < 0 or semi < amp) else piece


def cut_html(data: bytes) -> bytes:
    for encoding in ("utf-8", "cp1252", "latin-1"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    targets = set(re.findall(r'href\s*=\s*["\'][^"\'#]*#([^"\']+)["\']', text, flags=re.IGNORECASE))
    cutter = HTMLCutter(targets)
    cutter.feed(text)
    cutter.close()
    return cutter.result().encode(encoding)


def cut_epub(data: bytes) -> bytes:
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as target:
        names = source.namelist()
        if "mimetype" in names:
            target.writestr(zipfile.ZipInfo("mimetype"), source.read("mimetype"), compress_type=zipfile.ZIP_STORED)
        for name in names:
            if name == "mimetype" or name.endswith((".jpg", ".jpeg", ".png", ".gif", ".svg", ".ttf", ".otf", ".woff")):
                continue
            body = source.read(name)
            if name.endswith((".xhtml", ".html", ".htm")) and not name.endswith(("toc.xhtml", "nav.xhtml")):
                body = cut_html(body)
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            target.writestr(info, body, compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def main():
    source, target = sys.argv[1], sys.argv[2]
    data = open(source, "rb").read()
    if source.endswith(".epub"):
        result = cut_epub(data)
    elif source.endswith((".htm", ".html", ".xhtml")):
        result = cut_html(data)
    else:
        result = cut_text(data)
    open(target, "wb").write(result)


if __name__ == "__main__":
    main()
