#!/usr/bin/env python3
"""Writes crates/web/assets/fonts/qiju-board.woff2: the board's Chinese and
Japanese characters (Xiangqi and shogi pieces, the river, coordinates) cut
from Noto Serif CJK SC Bold (SIL Open Font License 1.1, Debian's
fonts-noto-cjk), so that a board reads the same on a machine with no CJK
font (issue 30, defect 19).

The characters are every CJK character the board modules
(crates/web/assets/js/boards/*.js) contain, plus the traditional forms of
the Xiangqi pieces. Needs `pip install fonttools brotli`; run from the
repository root:  python3 tools/board_font.py
"""
import glob
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

SOURCE = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"
SC = 2  # the collection's Simplified Chinese face
OUT = "crates/web/assets/fonts/qiju-board.woff2"
EXTRA = "帥將俥傌砲車漢仕相炮兵卒竜"


def board_chars():
    chars = set(EXTRA)
    for path in sorted(glob.glob("crates/web/assets/js/boards/*.js")):
        for c in open(path, encoding="utf-8").read():
            o = ord(c)
            if 0x3000 <= o <= 0x9FFF or 0xFF00 <= o <= 0xFFEF:
                chars.add(c)
    return "".join(sorted(chars))


def main():
    text = board_chars()
    font = TTCollection(SOURCE).fonts[SC]
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = []
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(text=text)
    sub.subset(font)
    font.flavor = "woff2"
    font.save(OUT)
    print(f"{OUT}: {len(text)} characters: {text}", file=sys.stderr)


if __name__ == "__main__":
    main()
