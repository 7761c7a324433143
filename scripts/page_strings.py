#!/usr/bin/env python3
"""Writes the page's copy of a string table: assets/i18n/LANG.json without the keys only the CLI uses.

The page never draws "cli.*" text (the CLI's table headings and lines; tests/i18n/check_page_strings.py keeps
the page's literals in the tables) nor the table's "_about" note, so its copy leaves them out: ~11 KB of the
English table that would otherwise be in every first load (docs/bundle-size.md). The tables stay one per
language in assets/i18n/; this runs at build time (web/CMakeLists.txt). Usage: page_strings.py IN OUT
"""
import json
import sys

# msg.f.*: the fleet document's reader (core/explore/fleet.cpp ParseFleetJson), which only the CLI runs: the page plans its
# fleet from the scenario and never reads a fleet document.
PAGE_OMITS = ('cli.', '_about', 'msg.f.')


def main():
    src, out = sys.argv[1:3]
    with open(src, encoding='utf-8') as f:
        table = json.load(f)
    page = {k: v for k, v in table.items() if not k.startswith(PAGE_OMITS)}
    with open(out, 'w', encoding='utf-8') as f:
        json.dump(page, f, ensure_ascii=False, separators=(',', ':'))
        f.write('\n')


if __name__ == '__main__':
    main()
