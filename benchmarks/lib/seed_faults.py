#!/usr/bin/env python3
"""Seeds faults into a built output directory as a faulty engine would make them: each fault's audio
replaces an item's object and the manifest records the new bytes (so only listening, not the
store's hashes, can find it), and stored verification results are dropped (the audio was never
heard right). Faults, each on its own long item, in different chunks where the book allows:
swapped (another item's audio), silence, truncated (first half), other-language (espeak-ng's
German voice reading the item's text), reversed, extra-speech (the item's audio followed by a
shorter item's), and noise (every item of one chapter replaced by
noise of the same length); then misread (the item's text spoken by its own voice with one word of
five or more letters in its middle replaced by another word of the book within a letter of its
length: a misread word, issue 53), on items of its own. Prints one JSON object: fault name -> list
of item ids.
Usage: seed_faults.py OUTPUT_DIR [COUNT_PER_FAULT]"""
import hashlib, json, os, random, sqlite3, subprocess, sys, tempfile, wave
import numpy as np

out = sys.argv[1]
per_fault = int(sys.argv[2]) if len(sys.argv) > 2 else 1
random.seed(11)
db = sqlite3.connect(os.path.join(out, "manifest.sqlite"))
rows = db.execute("""SELECT i.id, i.chapter, i.text, o.path, o.key FROM items i JOIN objects o ON o.key = i.audio_key
                     WHERE LENGTH(i.text) >= 120 ORDER BY i.chapter, i.ordinal""").fetchall()
chapters = sorted({r[1] for r in rows})
noise_chapter = chapters[-1] if len(chapters) > 1 else None
candidates = [r for r in rows if r[1] != noise_chapter]
faults = ["swapped", "silence", "truncated", "other-language", "reversed", "extra-speech"]
spread = candidates[:: max(1, len(candidates) // (len(faults) * per_fault + 1))]
random.shuffle(spread)
chosen = {}
for fault in faults:
    chosen[fault] = [spread.pop() for _ in range(per_fault)]
used = {r[0] for picks in chosen.values() for r in picks}

def read(path):
    with wave.open(path) as w:
        return np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16), w.getframerate()

def write(path, samples, rate):
    os.remove(path)  # objects are read-only; replace, do not write through
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate)
        w.writeframes(np.asarray(samples, dtype=np.int16).tobytes())

def record(key, path):
    # The new length too: the timeline places items by their recorded frames.
    data = open(path, "rb").read()
    samples, rate = read(path)
    db.execute("UPDATE objects SET sha256 = ?, bytes = ?, frames = ?, duration_ms = ? WHERE key = ?",
               (hashlib.sha256(data).hexdigest(), len(data), len(samples), len(samples) * 1000 // rate, key))

report = {}
for fault, picks in chosen.items():
    for item, chapter, text, rel, key in picks:
        path = os.path.join(out, rel)
        samples, rate = read(path)
        if fault == "swapped":
            donor = random.choice([r for r in candidates if r[0] not in used and abs(len(r[2]) - len(text)) < 0.15 * len(text)] or candidates)
            new, _ = read(os.path.join(out, donor[3]))
        elif fault == "silence":
            new = np.zeros(len(samples), dtype=np.int16)
        elif fault == "truncated":
            new = samples[: len(samples) // 2]
        elif fault == "other-language":
            with tempfile.NamedTemporaryFile(suffix=".wav") as tmp:
                subprocess.run(["espeak-ng", "-v", "de", "-w", tmp.name, text], check=True)
                new, other_rate = read(tmp.name)
                assert other_rate == rate, "the German voice speaks at another rate"
        elif fault == "reversed":
            new = samples[::-1]
        elif fault == "extra-speech":
            # The item's words, then a shorter item's after a breath: more than the text says, but
            # under the screen's 1.8x length limit.
            donor = random.choice([r for r in candidates if r[0] not in used and 0.3 * len(text) < len(r[2]) < 0.6 * len(text)] or candidates)
            extra, _ = read(os.path.join(out, donor[3]))
            new = np.concatenate([samples, np.zeros(rate * 3 // 10, dtype=np.int16), extra])
        write(path, new, rate)
        record(key, path)
        report.setdefault(fault, []).append(item)
# Misread words, on items none of the faults above took (their own generator: the picks above stay
# as they were).
misread_rng = random.Random(53)
vocabulary = sorted({w for r in rows for w in r[2].split() if w.isalpha() and w.islower() and len(w) >= 5})
misread = [r for r in candidates if r[0] not in used and len(r[2].split()) >= 12][1::max(1, len(candidates) // (4 * per_fault + 1))]
misread_rng.shuffle(misread)
for item, chapter, text, rel, key in misread[:per_fault]:
    words = text.split()
    middle = [i for i in range(len(words) // 4, 3 * len(words) // 4) if words[i].isalpha() and len(words[i]) >= 5]
    if not middle:
        continue
    at = misread_rng.choice(middle)
    word = words[at]
    others = [w for w in vocabulary if abs(len(w) - len(word)) <= 1 and w != word.lower() and w[0] != word.lower()[0]]
    words[at] = misread_rng.choice(others)
    voice, = db.execute("SELECT voice FROM items WHERE id = ?", (item,)).fetchone()
    # "espeak-ng:en-us+klatt?rate=175&pitch=50&volume=100"
    name, _, query = voice.split(":", 1)[1].partition("?")
    options = dict(part.split("=") for part in query.split("&") if "=" in part)
    path = os.path.join(out, rel)
    samples, rate = read(path)
    with tempfile.NamedTemporaryFile(suffix=".wav") as tmp:
        subprocess.run(["espeak-ng", "-v", name, "-s", options.get("rate", "175"), "-p", options.get("pitch", "50"), "-w", tmp.name, " ".join(words)], check=True)
        new, other_rate = read(tmp.name)
        assert other_rate == rate, "the voice speaks at another rate"
    write(path, new, rate)
    record(key, path)
    report.setdefault("misread", []).append(item)
    print(f"misread {item}: {word} -> {words[at]}", file=sys.stderr)
if noise_chapter is not None:
    generator = np.random.default_rng(5)
    for item, rel, key in db.execute("SELECT i.id, o.path, o.key FROM items i JOIN objects o ON o.key = i.audio_key WHERE i.chapter = ?", (noise_chapter,)).fetchall():
        path = os.path.join(out, rel)
        samples, rate = read(path)
        write(path, np.clip(generator.normal(0, 3000, len(samples)), -32768, 32767), rate)
        record(key, path)
        report.setdefault("noise", []).append(item)
db.execute("DELETE FROM chunks")
db.commit()
print(json.dumps(report))
