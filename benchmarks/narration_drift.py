#!/usr/bin/env python3
"""Compares `forge align narration --audio` word starts with reference times: usage
narration_drift.py <reference.jsonl> <aligned output dir>. Prints the word-start error over the
whole recording, its first ten minutes and its last ten minutes."""
import json, sqlite3, statistics, sys

reference = [json.loads(line) for line in open(sys.argv[1])]
db = sqlite3.connect(sys.argv[2] + "/manifest.sqlite")
# The whole narration's alignment (recording-absolute times) is one stored object.
(path,) = db.execute("SELECT path FROM objects WHERE role = 'alignment'").fetchone()
words = json.load(open(sys.argv[2] + "/" + path))["words"]
assert len(words) == len(reference), (len(words), len(reference))
errors = [(ref["startMs"], abs(word[0] - ref["startMs"])) for word, ref in zip(words, reference)]
total = reference[-1]["startMs"]
def report(name, values):
    values = sorted(values)
    print(f"{name}: {len(values)} words, median {statistics.median(values):.0f} ms, "
          f"within 50 ms {100 * sum(v <= 50 for v in values) / len(values):.1f}%, "
          f"within 200 ms {100 * sum(v <= 200 for v in values) / len(values):.1f}%, max {values[-1]} ms")
report("whole", [e for _, e in errors])
report("first 10 min", [e for t, e in errors if t < 600_000])
report("last 10 min", [e for t, e in errors if t >= total - 600_000])
