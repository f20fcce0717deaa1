/// A self-contained HTML read-along page for one chapter: the book's title, links to the contents
/// page and to the chapters before and after, an audio player, and the text with every word in a
/// span carrying its chapter-absolute times; the word being spoken is highlighted and kept in view,
/// and a click on a word seeks there. No server needed: it works opened straight from disk.
/// `#t=12.5` in the address (on load, or changed later) seeks to 12.5 s and scrolls to that word.
/// Dialogue shows its speaker's name, the narrator's announcements read as stage directions, and
/// items made of lines (verse, `split.unit: "line"`) keep their line breaks.
enum ReadAlongPage {
    /// A chapter as the pages link to it.
    struct ChapterLink {
        var fileStem: String
        var title: String
        /// The part the chapter is in, if the book has parts.
        var part: String?
    }

    static func html(
        _ timeline: ChapterTimeline, title: String, language: String, audioPath: String, audioType: String,
        chapters: [ChapterLink] = [], position: Int = 0
    ) -> String {
        var body = ""
        for item in timeline.items {
            let (tag, start) = XMLText.block(item)
            body += start
            if let character = item.record.character, item.record.kind == ItemKind.dialogue.rawValue {
                body += "<span class=\"speaker\" aria-hidden=\"true\">\(XMLText.escaped(character))</span> "
            }
            let text = XMLText.markedUp(item) { _, word, text in
                guard let timing = word.timing else { return text }
                return "<span class=\"w\" data-start=\"\(timing.startMs)\" data-end=\"\(timing.endMs)\">\(text)</span>"
            }
            // Words never hold a line break, so every one left is between words: a verse line's end.
            body += text.replacingOccurrences(of: "\n", with: "<br>\n")
            body += "</\(tag)>\n"
        }
        let previous = position > 0 && position - 1 < chapters.count ? chapters[position - 1] : nil
        let next = position + 1 < chapters.count ? chapters[position + 1] : nil
        var navigation = "<a href=\"index.html\" rel=\"contents\">Contents</a>"
        if let previous {
            navigation +=
                " <a href=\"\(previous.fileStem).html\" rel=\"prev\" title=\"\(XMLText.escaped(previous.title))\">‹ Previous</a>"
        }
        if let next {
            navigation +=
                " <a href=\"\(next.fileStem).html\" rel=\"next\" title=\"\(XMLText.escaped(next.title))\">Next ›</a>"
        }
        return """
            \(head(title: "\(timeline.chapter.title) — \(title)", language: language, extra: next.map { "<link rel=\"next\" href=\"\($0.fileStem).html\">" } ?? ""))
            <body>
            <header id="player">
            <nav><span class="book">\(XMLText.escaped(title))</span> \(navigation)</nav>
            <audio id="audio" controls preload="auto" src="\(XMLText.escaped(audioPath))" type="\(audioType)"></audio>
            </header>
            <main id="text">
            \(timeline.items.first?.record.kind == ItemKind.heading.rawValue ? "" : "<h1>\(XMLText.escaped(timeline.chapter.title))</h1>\n")\(body)</main>
            <footer>\(navigation)</footer>
            \(playerScript(nextPage: next.map { "\($0.fileStem).html" }))
            </body>
            </html>

            """
    }

    /// The page's player: highlights the word being read and keeps it in view, seeks to a word
    /// clicked or to `#t=` in the address, and goes on to `nextPage` when the chapter ends.
    static func playerScript(nextPage: String?) -> String {
        """
        <script>
        (function () {
          var audio = document.getElementById("audio");
          var words = Array.prototype.slice.call(document.querySelectorAll(".w"));
          var starts = words.map(function (w) { return +w.dataset.start; });
          var ends = words.map(function (w) { return +w.dataset.end; });
          var active = null;
          // The last word started by `ms`, or -1.
          function lastStarted(ms) {
            var low = 0, high = starts.length - 1, found = -1;
            while (low <= high) {
              var middle = (low + high) >> 1;
              if (starts[middle] <= ms) { found = middle; low = middle + 1; } else { high = middle - 1; }
            }
            return found;
          }
          function wordAt(ms) {
            var found = lastStarted(ms);
            return found >= 0 && ms < ends[found] ? words[found] : null;
          }
          function show(word, smooth) {
            word.scrollIntoView({ block: "center", behavior: smooth ? "smooth" : "auto" });
            document.body.dataset.scrollY = Math.round(window.scrollY);
          }
          // `jump`: a seek asked for by a link or a click, which brings the word into view even when paused.
          function update(jump) {
            var word = wordAt(audio.currentTime * 1000);
            if (word !== active) {
              if (active) active.classList.remove("active");
              if (word) word.classList.add("active");
              active = word;
              document.body.dataset.activeWord = word ? words.indexOf(word) : "";
              if (word && !audio.paused) show(word, true);
            }
            // In a pause nothing is highlighted, but a jump still brings its place into view.
            if (jump) {
              var place = word || words[Math.max(0, lastStarted(audio.currentTime * 1000))];
              if (place) show(place, false);
            }
          }
          function tick() { update(false); if (!audio.paused) requestAnimationFrame(tick); }
          function seek(seconds) {
            var go = function () { audio.currentTime = seconds; update(true); };
            if (audio.readyState >= 1) go(); else audio.addEventListener("loadedmetadata", go, { once: true });
          }
          function seekFromAddress() {
            var match = /[#&]t=([0-9.]+)/.exec(location.hash);
            if (match) seek(+match[1]);
          }
          audio.addEventListener("timeupdate", function () { update(false); });
          audio.addEventListener("seeked", function () { update(false); });
          audio.addEventListener("play", function () { requestAnimationFrame(tick); });
          \(nextPage.map { "audio.addEventListener(\"ended\", function () { location.href = \"\($0)\"; });" } ?? "")
          document.getElementById("text").addEventListener("click", function (event) {
            var word = event.target.closest(".w");
            if (!word) return;
            audio.currentTime = (+word.dataset.start + 1) / 1000;
            update(false);
          });
          window.addEventListener("hashchange", seekFromAddress);
          seekFromAddress();
        })();
        </script>
        """
    }

    /// The book's contents page (`html/index.html`): its title and a link to each chapter's page,
    /// chapters of a part under the part (as the EPUB's contents).
    static func contents(title: String, language: String, chapters: [ChapterLink]) -> String {
        let entries = MediaOverlayBook.contentsEntries(
            chapters.map { (link: "\($0.fileStem).html", title: $0.title, part: $0.part) })
        return """
            \(head(title: title, language: language, extra: "<style>main { padding-top: 1rem; }</style>"))
            <body>
            <main>
            <h1>\(XMLText.escaped(title))</h1>
            <nav aria-label="Contents"><ol>
            \(entries.joined(separator: "\n"))
            </ol></nav>
            </main>
            </body>
            </html>

            """
    }

    /// The start of a page up to `</head>`: language, title, the shared style, then `extra`.
    static func head(title: String, language: String, extra: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(XMLText.escaped(language))">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(XMLText.escaped(title))</title>
        <style>
        \(style)
        </style>
        \(extra)
        </head>
        """
    }

    static let style = """
        body { font: 1.15rem/1.6 Georgia, serif; max-width: 42rem; margin: 0 auto; padding: 7rem 1rem 3rem; color: #222; }
        #player { position: fixed; top: 0; left: 0; right: 0; padding: .5rem 1rem; background: #f6f4ef; border-bottom: 1px solid #ddd; }
        #player audio { width: 100%; }
        nav { font: .9rem/1.4 system-ui, sans-serif; margin-bottom: .3rem; }
        nav a { margin-left: .8rem; color: #1a4f8b; }
        nav .book { font-weight: 600; }
        footer { margin-top: 3rem; border-top: 1px solid #ddd; padding-top: .6rem; }
        h1 { font-size: 1.6rem; }
        .w { cursor: pointer; border-radius: 3px; }
        .w:hover { background: #eee; }
        .w.active { background: #ffd84d; }
        .announcement { font-style: italic; color: #666; font-size: .95rem; }
        .speaker { font: 600 .8rem/1 system-ui, sans-serif; text-transform: uppercase; letter-spacing: .05em; color: #7a4b00; }
        .dialogue { margin-left: 1rem; }
        """
}
