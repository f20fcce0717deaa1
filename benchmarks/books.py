#!/usr/bin/env python3
"""Real books as people download them, against the chapter lists the books themselves give.

For every book folder under the corpus (a `truth.json` and the book's files: Project Gutenberg's
plain text in its encodings, its HTML, a Standard Ebooks EPUB), runs `forge plan --json` and
`forge split` on each file and compares the chapters found with the truth of the file's edition:
chapters expected / found, titles matching, chapters under ten seconds that the book's contents do
not list (a listed chapter may be that short, and a cut fixture's often are), words of front and back
matter spoken (licence, contents, colophon lines found among the items), the encoding read.

    books.py [--forge PATH] [--corpus DIR] [--markdown] [--jobs N] [--only ID]
"""
import argparse
import concurrent.futures
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time

LABELS = {"chapter", "chap", "stave", "book", "part", "letter", "adventure", "volume", "vol", "act", "canto", "the"}
NUMBERS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70}
ORDINALS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split())}
ROMAN = re.compile(r"^(m{0,3})(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$")
MATTER = re.compile(
    r"project gutenberg|gutenberg\.org|gutenberg-tm|^produced by|standard ebooks|this ebook is for the use"
    r"|^(table of )?contents\.?$|^colophon$|^imprint$|uncopyright|^\[?transcriber|^illustrations\.?$"
    r"|^list of illustrations|^(a )?note on the text\.?$", re.IGNORECASE)


def roman(token):
    if not token or not ROMAN.match(token):
        return None
    if not token:
        return None
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
    total = 0
    for a, b in zip(token, token[1:] + " "):
        value = values[a]
        total += -value if b != " " and values.get(b, 0) > value else value
    return total


def tokens(title, ordinals=True):
    """A title as compared: lower case words, numbers as numbers, label words ("Chapter") left out;
    an opening ordinal a number too when `ordinals` ("Chapter the First", not "The First of the
    Three Spirits": same_title tries both)."""
    words = re.findall(r"[^\W_]+", title.lower().replace("’", "").replace("'", ""))
    out = []
    pending = None
    for word in words:
        if (word in LABELS and not out) or word in ("the", "a", "an"):
            continue
        # A number in two words at the start: "Twenty-One" is 21.
        if not out and pending is None and word in TENS:
            pending = TENS[word]
            continue
        if pending is not None:
            ten, pending = pending, None
            if NUMBERS.get(word, 99) < 10:
                out.append(str(ten + NUMBERS[word]))
                continue
            out.append(str(ten))
        # A number is a chapter's number where a title starts ("Stave One", "IV. Martha"), a word
        # elsewhere ("Some One Crying").
        if not out and word in NUMBERS:
            word = str(NUMBERS[word])
        elif not out and ordinals and word in ORDINALS:
            word = str(ORDINALS[word])
        elif not out and (value := roman(word)) is not None:
            word = str(value)
        out.append(word)
    if pending is not None:
        out.append(str(pending))
    return out


def same_title(expected, found):
    """Equal as words (spaces aside: "some one" is "someone"); or equal but for a number one of them
    leaves to its place in the list ("I. The Period", "The Period"); or the found title has the
    expected one's words in order and at most two more. A truth title of null takes any title (an
    opening chapter of a dedication and an epigraph that the book does not title)."""
    if expected is None:
        return True
    return any(same_tokens(tokens(expected, a), tokens(found, b)) for a in (True, False) for b in (True, False))


def same_tokens(e, f):
    if "".join(e) == "".join(f):
        return True
    for a, b in ((e, f), (f, e)):
        if len(a) > 1 and a[0].isdigit() and "".join(a[1:]) == "".join(b):
            return True
    if not e or len(f) - len(e) > 2 or len(f) < len(e):
        return False
    position = 0
    for word in f:
        if position < len(e) and word == e[position]:
            position += 1
    return position == len(e)


def matches(expected, found):
    """How many chapters are found in order, titled and in the part the truth says (a longest common subsequence)."""
    def same(a, b):
        if not same_title(a["title"], b["title"]):
            return False
        if (a.get("part") is None) != (b.get("part") is None):
            return False
        return a.get("part") is None or same_title(a["part"], b["part"])

    n, m = len(expected), len(found)
    previous = [0] * (m + 1)
    for i in range(1, n + 1):
        current = [0] * (m + 1)
        for j in range(1, m + 1):
            current[j] = previous[j - 1] + 1 if same(expected[i - 1], found[j - 1]) else max(previous[j], current[j - 1])
        previous = current
    return previous[m]


def run_case(forge, folder, file, edition):
    with tempfile.TemporaryDirectory() as scratch:
        recipe = os.path.join(scratch, "recipe.json")
        source = os.path.abspath(os.path.join(folder, file))
        with open(recipe, "w") as handle:
            json.dump({"version": 1, "title": "book", "language": "en", "sources": [source],
                       "voice": {"engine": "espeak-ng", "id": "en-us"},
                       "output": {"directory": os.path.join(scratch, "out")}}, handle)
        started = time.monotonic()
        plan = subprocess.run([forge, "plan", recipe, "--json", "--allow-outside-paths"], capture_output=True, text=True)
        seconds = time.monotonic() - started
        if plan.returncode != 0:
            return {"file": file, "error": (plan.stderr.strip().splitlines() or ["?"])[0][:160]}
        report = json.loads(plan.stdout)
        split = subprocess.run([forge, "split", recipe, "--allow-outside-paths"], capture_output=True, text=True)
        matter_words = 0
        if split.returncode == 0:
            with sqlite3.connect(os.path.join(scratch, "out", "manifest.sqlite")) as db:
                for (text,) in db.execute("SELECT text FROM items"):
                    if MATTER.search(text.strip()):
                        matter_words += len(text.split())
    found = []
    for chapter in report["chapters"]:
        title, part = chapter["title"], chapter["part"]
        if part and title.startswith(part + " — "):
            title = title[len(part) + 3:]
        found.append({"title": title, "part": part, "ms": chapter["durationMs"]})
    expected = edition["chapters"]
    matched = matches(expected, found)
    source = (report.get("sources") or [{}])[0]
    return {
        "file": file, "expected": len(expected), "found": len(found), "titles": matched,
        "exact": matched == len(expected) == len(found),
        "short": sum(1 for c in found
                     if c["ms"] < 10_000 and not any(same_title(e["title"], c["title"]) for e in expected)), "matter": matter_words,
        "unspoken": source.get("unspokenWords", 0), "encoding": source.get("encoding") or "(EPUB)",
        "seconds": seconds,
        "missing": [c["title"] for c in expected if not any(same_title(c["title"], f["title"]) for f in found)][:3],
        "extra": [f["title"] for f in found if not any(same_title(c["title"], f["title"]) for c in expected)][:3],
    }


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser()
    parser.add_argument("--forge", default=os.path.join(here, "..", ".build", "release", "forge"))
    parser.add_argument("--corpus", default=os.path.join(here, "..", "Tests", "ForgeTests", "Resources", "books"))
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--only")
    parser.add_argument("--details", action="store_true", help="print missing and extra titles of cases not exact")
    args = parser.parse_args()
    cases = []
    for name in sorted(os.listdir(args.corpus)):
        folder = os.path.join(args.corpus, name)
        truth_path = os.path.join(folder, "truth.json")
        if not os.path.exists(truth_path) or (args.only and args.only != name.split("-")[0]):
            continue
        truth = json.load(open(truth_path))
        for edition in truth["editions"].values():
            for file in edition["files"]:
                if os.path.exists(os.path.join(folder, file)):
                    cases.append((name, truth["title"], folder, file, edition))
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda c: (c, run_case(args.forge, c[2], c[3], c[4])), cases))
    header = ["book", "file", "encoding", "expected", "found", "titles", "exact", "under 10 s", "matter spoken",
              "unspoken"]
    rows = []
    for (name, title, _, file, _), result in results:
        if "error" in result:
            rows.append([title[:32], file, "—", "", "", "", "error: " + result["error"], "", "", ""])
            continue
        rows.append([title[:32], file, result["encoding"], result["expected"], result["found"], result["titles"],
                     "yes" if result["exact"] else "no", result["short"], result["matter"], result["unspoken"]])
    done = [r for _, r in results if "error" not in r]
    exact = sum(1 for r in done if r["exact"])
    total = len(results)
    summary = (f"{exact} of {total} book-format cases exact ({100 * exact / max(total, 1):.0f}%), "
               f"{sum(1 for r in done if r['short'])} with a chapter under 10 s, "
               f"{sum(1 for r in done if r['matter'])} with front or back matter spoken "
               f"({sum(r['matter'] for r in done)} words), {total - len(done)} refused; "
               f"{len({c[0] for c in cases})} books; plan median "
               f"{sorted(r['seconds'] for r in done)[len(done) // 2] if done else 0:.2f} s")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(str(c) for c in row) + " |")
        print()
        print(summary)
    else:
        widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
        for row in [header] + rows:
            print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))
        print(summary)
    if args.details:
        for (name, title, _, file, _), result in results:
            if "error" not in result and not result["exact"]:
                print(f"{file}: missing {result['missing']} extra {result['extra']}")


if __name__ == "__main__":
    main()
