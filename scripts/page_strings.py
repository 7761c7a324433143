#!/usr/bin/env python3
"""Writes the page's copy of a string table: assets/i18n/LANG.json without the keys only the CLI uses.

The page never draws "cli.*" text (the CLI's table headings and lines; tests/i18n/check_page_strings.py keeps
the page's literals in the tables) nor the table's "_about" note, so its copy leaves them out: ~11 KB of the
English table that would otherwise be in every first load (docs/bundle-size.md). The tables stay one per
language in assets/i18n/; this runs at build time (web/CMakeLists.txt).

Nor are the strings of the views that fetch them when they first open (LATE_GROUPS: the Plan vs actual view's
actual.*, log.*, run.*, ~3.7 KB gzip of English; the Evidence view's evidence.*; the Sensitivity view's sens.*): with --late DIR each group goes to
DIR/<group>.<lang>.json (web/app_lang.cpp AppViewStrings, core/base/i18n.h AddTranslations).

Usage: page_strings.py IN OUT [--late DIR]
"""
import json
import os
import sys

# msg.f.*: the fleet document's reader (core/explore/fleet.cpp ParseFleetJson), which only the CLI runs: the page plans its
# fleet from the scenario and never reads a fleet document.
PAGE_OMITS = ('cli.', '_about', 'msg.f.')
# group -> key prefixes (web/CMakeLists.txt names the groups too: GPUCOST_LATE_STRINGS)
LATE_GROUPS = {'actual': ('actual.', 'log.', 'run.'), 'evidence': ('evidence.',), 'sensitivity': ('sens.',)}


def write(path, table):
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(table, f, ensure_ascii=False, separators=(',', ':'))
        f.write('\n')


def main():
    src, out = sys.argv[1:3]
    late_dir = sys.argv[4] if len(sys.argv) == 5 and sys.argv[3] == '--late' else None
    lang = os.path.splitext(os.path.basename(src))[0]
    with open(src, encoding='utf-8') as f:
        table = json.load(f)
    page = {k: v for k, v in table.items() if not k.startswith(PAGE_OMITS)}
    if late_dir:
        os.makedirs(late_dir, exist_ok=True)
        for group, prefixes in LATE_GROUPS.items():
            write(os.path.join(late_dir, f'{group}.{lang}.json'), {k: v for k, v in page.items() if k.startswith(prefixes)})
            page = {k: v for k, v in page.items() if not k.startswith(prefixes)}
    write(out, page)


if __name__ == '__main__':
    main()
