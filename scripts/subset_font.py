#!/usr/bin/env python3
"""Subsets a Korean font for the page (run by web/CMakeLists.txt at build time; needs python3-fonttools).

  subset_font.py --font NanumGothic.ttf --out DIR --text assets/i18n/ko.json [--text more.json ...]

Writes three TrueType files into DIR:
  ko-min.ttf     "한국어", ₩, "·" and the English table's characters beyond Latin-1 (the language switch, KRW,
                 a middle dot and Korean examples on the English page, fetched after its first frame);
  ko-ui.ttf      every character of the given text files' strings (the UI's Korean, symbols such as ₩),
                 fetched before the first frame when the page is in Korean;
  ko-typing.ttf  the 2,350 Hangul syllables of KS X 1001 (the common ones, what a Korean IME mostly
                 produces) and the compatibility jamo, fetched the first time someone types or opens Hangul.
The families are renamed ("gpucost ko ui" / "gpucost ko typing"): a subset is a modified version under the
SIL Open Font License, which reserves the original font names. Exits non-zero when the source font cannot
draw a character the UI uses, so a string the page could not draw fails the build.
"""
import argparse
import json
import os
import sys

import logging

from fontTools import subset
from fontTools.ttLib import TTFont


def strings_of(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings_of(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_of(v)


def ks_x_1001_syllables():
    """The 2,350 precomposed syllables of KS X 1001 (EUC-KR rows 0xB0-0xC8)."""
    out = []
    for hi in range(0xB0, 0xC9):
        for lo in range(0xA1, 0xFF):
            out.append(ord(bytes([hi, lo]).decode("euc_kr")))
    return out


def write_subset(font_path, codepoints, family, out_path):
    font = TTFont(font_path)
    options = subset.Options()
    options.layout_features = []      # ImGui draws glyphs one by one: no shaping tables
    options.hinting = False            # stb_truetype ignores hinting
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=sorted(codepoints))
    sub.subset(font)
    for rec in font["name"].names:
        if rec.nameID in (1, 4):
            rec.string = family
        elif rec.nameID in (3, 6):
            rec.string = family.replace(" ", "")
    font.save(out_path)


def main():
    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)
    ap = argparse.ArgumentParser()
    ap.add_argument("--font", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--text", action="append", default=[])
    ap.add_argument("--english", help="the English table: its characters beyond Latin-1 go into ko-min.ttf")
    args = ap.parse_args()
    cmap = TTFont(args.font).getBestCmap()
    ui = set(range(0x20, 0x7F)) | {0x20A9}  # ASCII and ₩ (the won sign, also in English)
    for path in args.text:
        with open(path, encoding="utf-8") as f:
            for s in strings_of(json.load(f)):
                ui.update(ord(c) for c in s if ord(c) >= 0x20)
    missing = sorted(c for c in ui if c not in cmap)
    if missing:
        sys.stderr.write("subset_font.py: %s cannot draw: %s\n" % (
            os.path.basename(args.font), " ".join("U+%04X(%s)" % (c, chr(c)) for c in missing)))
        return 1
    os.makedirs(args.out, exist_ok=True)
    write_subset(args.font, ui, "gpucost ko ui", os.path.join(args.out, "ko-ui.ttf"))
    english = set()
    if args.english:
        with open(args.english, encoding="utf-8") as f:
            english = {ord(c) for s in strings_of(json.load(f)) for c in s if ord(c) > 0xFF}
    # The middle dot too: ImGui's own font draws it as a square pixel (web/app.cpp AppApplyUiScale).
    write_subset(args.font, {ord(c) for c in "한국어·"} | {0x20A9} | english | set(range(0x20, 0x7F)), "gpucost ko min",
                 os.path.join(args.out, "ko-min.ttf"))
    typing = set(ks_x_1001_syllables()) | set(range(0x3131, 0x3164)) | set(range(0x20, 0x7F))
    write_subset(args.font, {c for c in typing if c in cmap}, "gpucost ko typing", os.path.join(args.out, "ko-typing.ttf"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
