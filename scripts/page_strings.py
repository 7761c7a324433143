#!/usr/bin/env python3
"""Writes the page's copy of a string table: assets/i18n/LANG.json without the keys only the CLI uses.

The page never draws "cli.*" text (the CLI's table headings and lines; tests/i18n/check_page_strings.py keeps
the page's literals in the tables) nor the table's "_about" note, so its copy leaves them out: ~11 KB of the
English table that would otherwise be in every first load (docs/bundle-size.md). The tables stay one per
language in assets/i18n/; this runs at build time (web/CMakeLists.txt).

The Plan vs actual view's keys (actual.*, log.*, run.*: ~3.7 KB gzip of English) are not in the first load either:
with --late OUT_LATE they go to a table of their own, which the page fetches when the view first opens or a run is
dropped on it (web/ui_actual.cpp, core/base/i18n.h AddTranslations).

Usage: page_strings.py IN OUT [--late OUT_LATE]
"""
import json
import sys

# msg.f.*: the fleet document's reader (core/explore/fleet.cpp ParseFleetJson), which only the CLI runs: the page plans its
# fleet from the scenario and never reads a fleet document.
PAGE_OMITS = ('cli.', '_about', 'msg.f.')
LATE = ('actual.', 'log.', 'run.')


def write(path, table):
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(table, f, ensure_ascii=False, separators=(',', ':'))
        f.write('\n')


def main():
    src, out = sys.argv[1:3]
    late_out = sys.argv[4] if len(sys.argv) == 5 and sys.argv[3] == '--late' else None
    with open(src, encoding='utf-8') as f:
        table = json.load(f)
    page = {k: v for k, v in table.items() if not k.startswith(PAGE_OMITS)}
    if late_out:
        write(late_out, {k: v for k, v in page.items() if k.startswith(LATE)})
        page = {k: v for k, v in page.items() if not k.startswith(LATE)}
    write(out, page)


if __name__ == '__main__':
    main()
