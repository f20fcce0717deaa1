#!/usr/bin/env python3
"""Joins a build's chapter audio exports into one narration WAV and writes its reference word
times (from the synthesizer's events, chapter offsets added) as JSON lines, and each sentence's
start beside them (<out-reference>.sentences.jsonl). With --skip, one paragraph near the middle of
the book (the first of at least 40 words after half the items) is cut out of the narration, as a
narrator who skipped it would leave it, and written to <out-reference>.skipped.json instead.
Usage: narration_reference.py <exports dir> <out.wav> <out-reference.jsonl> [--skip]"""
import json, sys, wave, glob, os

exports, out_wav, out_ref = sys.argv[1:4]
skip = "--skip" in sys.argv[4:]
chapters = sorted(glob.glob(os.path.join(exports, "json", "chapter-*.json")))
documents = [json.load(open(path)) for path in chapters]
items = [item for chapter in documents for item in chapter["items"]]
skipped_id = None
if skip:
    middle = len(items) // 2
    skipped_id = next(i["id"] for i in items[middle:] if i["kind"] == "paragraph" and len(i["words"]) >= 40)
offset_ms = 0
with wave.open(out_wav, "wb") as joined, open(out_ref, "w") as ref, open(out_ref.replace(".jsonl", ".sentences.jsonl"), "w") as sentences:
    for index, chapter in enumerate(documents):
        audio = os.path.join(exports, "json", chapter["audio"])
        with wave.open(audio, "rb") as part:
            if index == 0:
                joined.setparams(part.getparams())
            rate = part.getframerate()
            frames = part.readframes(part.getnframes())
        width = 2 * joined.getnchannels()
        cut_from = cut_to = None
        for position, item in enumerate(chapter["items"]):
            if item["id"] == skipped_id:
                # From the paragraph's start to the next one's: the paragraph and its pause.
                following = chapter["items"][position + 1]["startMs"] if position + 1 < len(chapter["items"]) else chapter["durationMs"]
                cut_from, cut_to = item["startMs"] * rate // 1000, following * rate // 1000
                json.dump({"item": item["id"], "text": item["text"], "words": len(item["words"]),
                           "atMs": item["startMs"] + offset_ms}, open(out_ref.replace(".jsonl", ".skipped.json"), "w"))
        removed_ms = 0
        if cut_from is not None:
            frames = frames[:cut_from * width] + frames[cut_to * width:]
            removed_ms = (cut_to - cut_from) * 1000 // rate
            cut_ms = cut_from * 1000 // rate
        joined.writeframes(frames)
        length_ms = len(frames) // width * 1000 // rate
        for item in chapter["items"]:
            if item["id"] == skipped_id:
                continue
            shift = offset_ms - (removed_ms if cut_from is not None and item["startMs"] >= cut_ms else 0)
            for word in item["words"]:
                ref.write(json.dumps({"item": item["id"], "text": word["text"], "startMs": word["startMs"] + shift}) + "\n")
            for number, sentence in enumerate(item.get("sentences", [])):
                # Where its first word starts (a sentence's own start takes in the pause before it).
                start = item["words"][sentence["firstWord"]]["startMs"] if item["words"] else sentence["startMs"]
                sentences.write(json.dumps({"item": item["id"], "index": number, "startMs": start + shift}) + "\n")
        offset_ms += length_ms
print(f"{len(chapters)} chapters, {offset_ms / 1000:.1f} s" + (f"; skipped paragraph {skipped_id}" if skipped_id else ""))
