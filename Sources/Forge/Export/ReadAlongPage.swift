/// A self-contained HTML read-along page for one chapter: an audio player, the text with every
/// word in a span carrying its chapter-absolute times, the word being spoken highlighted, and a
/// click on a word seeking there. No server needed: it works opened straight from disk.
/// `#t=12.5` in the address seeks to 12.5 s on load.
enum ReadAlongPage {
    static func html(_ timeline: ChapterTimeline, title: String, language: String, audioPath: String, audioType: String) -> String {
        var body = ""
        for item in timeline.items {
            let (tag, start) = XMLText.block(item)
            body += start
            body += XMLText.markedUp(item) { _, word, text in
                guard let timing = word.timing else { return text }
                return "<span class=\"w\" data-start=\"\(timing.startMs)\" data-end=\"\(timing.endMs)\">\(text)</span>"
            }
            body += "</\(tag)>\n"
        }
        return """
            <!DOCTYPE html>
            <html lang="\(XMLText.escaped(language))">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(XMLText.escaped(title)) — \(XMLText.escaped(timeline.chapter.title))</title>
            <style>
            body { font: 1.15rem/1.6 Georgia, serif; max-width: 42rem; margin: 0 auto; padding: 5rem 1rem 3rem; }
            #player { position: fixed; top: 0; left: 0; right: 0; padding: .6rem 1rem; background: #f6f4ef; border-bottom: 1px solid #ddd; }
            #player audio { width: 100%; }
            .w { cursor: pointer; border-radius: 3px; }
            .w:hover { background: #eee; }
            .w.active { background: #ffd84d; }
            </style>
            </head>
            <body>
            <div id="player"><audio id="audio" controls preload="auto" src="\(XMLText.escaped(audioPath))" type="\(audioType)"></audio></div>
            <main id="text">
            \(body)</main>
            <script>
            (function () {
              var audio = document.getElementById("audio");
              var words = Array.prototype.slice.call(document.querySelectorAll(".w"));
              var starts = words.map(function (w) { return +w.dataset.start; });
              var ends = words.map(function (w) { return +w.dataset.end; });
              var active = null;
              function wordAt(ms) {
                var low = 0, high = starts.length - 1, found = -1;
                while (low <= high) {
                  var middle = (low + high) >> 1;
                  if (starts[middle] <= ms) { found = middle; low = middle + 1; } else { high = middle - 1; }
                }
                return found >= 0 && ms < ends[found] ? words[found] : null;
              }
              function update() {
                var word = wordAt(audio.currentTime * 1000);
                if (word === active) return;
                if (active) active.classList.remove("active");
                if (word) {
                  word.classList.add("active");
                  if (!audio.paused) word.scrollIntoView({ block: "center", behavior: "smooth" });
                }
                active = word;
                document.body.dataset.activeWord = word ? words.indexOf(word) : "";
              }
              function tick() { update(); if (!audio.paused) requestAnimationFrame(tick); }
              audio.addEventListener("timeupdate", update);
              audio.addEventListener("seeked", update);
              audio.addEventListener("play", function () { requestAnimationFrame(tick); });
              document.getElementById("text").addEventListener("click", function (event) {
                var word = event.target.closest(".w");
                if (!word) return;
                audio.currentTime = (+word.dataset.start + 1) / 1000;
                update();
              });
              var seek = /[#&]t=([0-9.]+)/.exec(location.hash);
              if (seek) {
                var seekTo = function () { audio.currentTime = +seek[1]; update(); };
                if (audio.readyState >= 1) seekTo(); else audio.addEventListener("loadedmetadata", seekTo, { once: true });
              }
            })();
            </script>
            </body>
            </html>

            """
    }
}
