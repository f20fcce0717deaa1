#!/usr/bin/env python3
"""Difficult prose from the shared corpus, for measuring verify's false flags (issue 36).

Usage: make_difficult_prose.py CORPUS CHAPTERS > out.txt

Takes the first CHAPTERS chapters and makes them hard to recognise in the three ways the issue
names, deterministically (a fixed seed, so two runs give the same text):
- invented words: one in eight word types of six letters or more is replaced, everywhere it occurs,
  by a pronounceable word no dictionary has ("scrimbolt", "vaunderish");
- dialect: speech inside quotation marks is respelled as eye dialect ("goin'", "ye", "'em",
  "nowt", "o'", "an'", "ain't");
- stream of consciousness: every third narrative paragraph loses its full stops; its sentences run
  on, joined by "and", dashes and ellipses.
"""
import random
import re
import sys

ONSETS = ["b", "bl", "br", "ch", "cr", "d", "dr", "f", "fl", "g", "gl", "gr", "j", "k", "l", "m", "n", "p", "pl",
          "qu", "r", "s", "sc", "scr", "sh", "sl", "sn", "sp", "st", "str", "t", "th", "tr", "v", "w", "wh", "z"]
VOWELS = ["a", "e", "i", "o", "u", "ai", "au", "ea", "ee", "oo", "ou", "oi"]
CODAS = ["", "", "b", "ck", "d", "f", "g", "l", "ld", "lt", "m", "mp", "n", "nd", "nk", "p", "r", "rd", "rn", "sh",
         "st", "t", "x"]
ENDINGS = ["", "", "", "ish", "ous", "ly", "er", "ing", "le", "et"]

DIALECT = [
    (r"\byou\b", "ye"), (r"\bYou\b", "Ye"), (r"\byour\b", "yer"), (r"\bthem\b", "'em"), (r"\bold\b", "auld"),
    (r"\bnothing\b", "nowt"), (r"\bof\b", "o'"), (r"\band\b", "an'"), (r"\bis not\b", "ain't"),
    (r"\bisn't\b", "ain't"), (r"\bgoing to\b", "gonna"), (r"\bwant to\b", "wanna"), (r"\bmy\b", "me"),
    (r"\bYes\b", "Aye"), (r"\byes\b", "aye"), (r"\bthe\b", "th'"), (r"\babout\b", "'bout"),
    (r"\b([a-z]{3,})ing\b", r"\1in'"),
]


def invented_word(rng):
    syllables = rng.choice([1, 2, 2])
    word = "".join(rng.choice(ONSETS) + rng.choice(VOWELS) + rng.choice(CODAS) for _ in range(syllables))
    return word + rng.choice(ENDINGS)


def chapters(text, count):
    parts = re.split(r"(?m)^(?=Chapter \d+\s*$)", text)
    return [part for part in parts if part.startswith("Chapter ")][:count]


def main():
    corpus, count = sys.argv[1], int(sys.argv[2])
    rng = random.Random(36)
    text = "".join(chapters(open(corpus, encoding="utf-8").read(), count))
    invented = {}
    types = sorted({word.lower() for word in re.findall(r"[A-Za-z]{6,}", text)})
    for word in types:
        if rng.random() < 1 / 8:
            invented[word] = invented_word(rng)

    def invent(match):
        word = match.group(0)
        replacement = invented.get(word.lower())
        if replacement is None:
            return word
        return replacement.capitalize() if word[0].isupper() else replacement

    def dialect(match):
        speech = match.group(0)
        for pattern, replacement in DIALECT:
            speech = re.sub(pattern, replacement, speech)
        return speech

    def run_on(paragraph):
        joins = [" and ", " -- ", "... ", ", and then ", " and "]
        sentences = re.split(r"(?<!Mr\.)(?<!Mrs\.)(?<=[.!?])\s+(?=[A-Z])", paragraph)
        out = sentences[0]
        for sentence in sentences[1:]:
            out = out.rstrip(".") + rng.choice(joins) + (sentence[0].lower() + sentence[1:] if not sentence.startswith(("I ", "Mr", "Mrs", "Miss")) else sentence)
        return out

    paragraphs = text.split("\n\n")
    narrative = 0
    result = []
    for paragraph in paragraphs:
        paragraph = re.sub(r"[A-Za-z]{6,}", invent, paragraph)
        if '"' in paragraph:
            paragraph = re.sub(r'"[^"]*"', dialect, paragraph)
        elif not paragraph.strip().startswith("Chapter"):
            narrative += 1
            if narrative % 3 == 0:
                paragraph = run_on(paragraph)
        result.append(paragraph)
    sys.stdout.write("\n\n".join(result))


if __name__ == "__main__":
    main()
