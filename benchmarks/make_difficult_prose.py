#!/usr/bin/env python3
"""Difficult prose from the shared corpus, for measuring verify's false flags (issue 36).

Usage: make_difficult_prose.py CORPUS CHAPTERS [--numbers] [--from FIRST] > out.txt

Takes the first CHAPTERS chapters and makes them hard to recognise in the three ways the issue
names, deterministically (a fixed seed, so two runs give the same text):
- invented words: one in eight word types of six letters or more is replaced, everywhere it occurs,
  by a pronounceable word no dictionary has ("scrimbolt", "vaunderish");
- dialect: speech inside quotation marks is respelled as eye dialect ("goin'", "ye", "'em",
  "nowt", "o'", "an'", "ain't");
- stream of consciousness: every third narrative paragraph loses its full stops; its sentences run
  on, joined by "and", dashes and ellipses.

With --numbers (issue 53), what older and technical books are full of as well: a sentence with
numbers, dates, times, money, percentages, ordinals, abbreviations or Roman numerals is added to one
paragraph in three; quotations are set in the chapter's own style (straight, curly, single, or
guillemets); dashes are em dashes or double hyphens; and one paragraph in ten is followed by a
one-word reply or a few lines of verse. --from starts at chapter FIRST (default 1).
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


NUMBERED = [
    "It was {year}, and the fee came to £{pounds},{hundreds} and {shillings}s. {pence}d. in all.",
    "The column of {year2} B. C. stood {feet} ft. high, some {pct}% of it sunk in the ground.",
    "Dr. {name} of No. {house} {street} St. called at {hour}:{minute:02d} p.m. on Tues., the {day}{suffix} of {month}.",
    "Henry {roman} and Louis {roman2} had reigned, Mr. {name} said, from A.D. {year3} to {year4}.",
    "He paid ${dollars},{hundreds}.{cents:02d} for {count} acres, i.e. {fraction} of the estate, etc.",
    "On {month} {day}, {year}, at {hour} o'clock, {count} guests came by the {ordinal} train.",
    "See vol. {roman}, ch. {chapter}, pp. {page}-{page2}, and cf. the note on p. {page3}.",
    "The U.S.A. and the U.K. signed it in {year}; Mrs. {name}, Esq., kept copy no. {house}.",
    "{count} out of {count2} voted for it, a {pct}.{tenth}% share, in the {ordinal} ballot of the year.",
]
NAMES = ["Smith", "Holloway", "Blake", "Fenwick", "Ashby", "Carrow", "Dunmore"]
STREETS = ["Gower", "Harley", "Baker", "Wimpole", "Portland"]
MONTHS = ["January", "March", "May", "June", "August", "October", "Nov.", "Dec."]
VERSE = [
    "The wind was high upon the hill,\nThe night was long and cold,\nAnd still the lamp burned on, and still\nThe story went untold.",
    "O gentle sleep, O quiet deep,\nCome softly to my door;\nThe sheep are in, the fold is shut,\nThe day will come no more.",
    "Over the water, over the lea,\nOne for the ferry and two for me.",
]
REPLIES = ["Yes.", "No!", "Never.", "Perhaps.", "Indeed?", "Gone.", "Why?", "Well--"]
QUOTES = [('"', '"'), ("\u201c", "\u201d"), ("\u2018", "\u2019"), ("\u00ab ", " \u00bb")]


def ordinal_suffix(day):
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def roman(value):
    numerals = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"),
                (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = ""
    for amount, numeral in numerals:
        while value >= amount:
            out += numeral
            value -= amount
    return out


def numbered_sentence(rng):
    day = rng.randint(1, 28)
    values = dict(
        year=rng.randint(1700, 1899), year2=rng.randint(100, 999), year3=rng.randint(800, 1500), year4=rng.randint(1501, 1700),
        pounds=rng.randint(1, 9), hundreds=rng.randint(100, 999), shillings=rng.randint(1, 19), pence=rng.randint(1, 11),
        feet=rng.randint(20, 180), pct=rng.randint(2, 95), tenth=rng.randint(1, 9), name=rng.choice(NAMES),
        house=rng.randint(2, 240), street=rng.choice(STREETS), hour=rng.randint(1, 11), minute=rng.randint(0, 59), day=day,
        suffix=ordinal_suffix(day), month=rng.choice(MONTHS), roman=roman(rng.randint(2, 18)), roman2=roman(rng.randint(2, 18)),
        dollars=rng.randint(1, 99), cents=rng.randint(0, 99), count=rng.randint(3, 400), count2=rng.randint(401, 900),
        fraction=rng.choice(["1/2", "1/3", "3/4", "2/5"]), ordinal=rng.choice(["1st", "2nd", "3rd", "4th", "21st", "32nd"]),
        chapter=rng.randint(1, 40), page=rng.randint(10, 400), page2=rng.randint(401, 420), page3=rng.randint(1, 99),
    )
    return rng.choice(NUMBERED).format(**values)


def with_numbers(paragraphs, rng):
    """One paragraph in three gains a sentence of numbers and abbreviations; quotations take the
    chapter's style, dashes an em dash or a double hyphen; one paragraph in ten is followed by a
    one-word reply or a few lines of verse."""
    out = []
    quotes = QUOTES[0]
    dash = "--"
    for index, paragraph in enumerate(paragraphs):
        if paragraph.strip().startswith("Chapter"):
            quotes = rng.choice(QUOTES)
            dash = rng.choice(["--", "\u2014"])
            out.append(paragraph)
            continue
        paragraph = re.sub(r'"([^"]*)"', lambda m: quotes[0] + m.group(1) + quotes[1], paragraph)
        paragraph = paragraph.replace("--", dash)
        if rng.random() < 1 / 3:
            paragraph = paragraph.rstrip() + " " + numbered_sentence(rng)
        out.append(paragraph)
        roll = rng.random()
        if roll < 0.05:
            out.append(rng.choice(REPLIES))
        elif roll < 0.1:
            out.append(rng.choice(VERSE))
    return out


def main():
    arguments = sys.argv[1:]
    numbers = "--numbers" in arguments
    first = int(arguments[arguments.index("--from") + 1]) if "--from" in arguments else 1
    positional = [a for i, a in enumerate(arguments) if not a.startswith("--") and (i == 0 or arguments[i - 1] != "--from")]
    corpus, count = positional[0], int(positional[1])
    rng = random.Random(36)
    text = "".join(chapters(open(corpus, encoding="utf-8").read(), first - 1 + count)[first - 1:])
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
    if numbers:
        result = with_numbers(result, random.Random(53))
    sys.stdout.write("\n\n".join(result))


if __name__ == "__main__":
    main()
