#!/usr/bin/env python3
"""Writes the page's copy of a string table: assets/i18n/LANG.json without the keys only the CLI uses.

The page never draws "cli.*" text (the CLI's table headings and lines; tests/i18n/check_page_strings.py keeps
the page's literals in the tables) nor the table's "_about" note, so its copy leaves them out: ~11 KB of the
English table that would otherwise be in every first load (docs/bundle-size.md). The tables stay one per
language in assets/i18n/; this runs at build time (web/CMakeLists.txt).

With --first KEYS --more OUT_MORE --more-path PATH (issue 47) the copy is cut in two: OUT holds the keys its first
frames look up (KEYS, web/first_frame_keys.txt, recorded by scripts/profile_first_frame.sh), those of them no table
has as null (known absent), and "_more": PATH; OUT_MORE holds the rest, which the page fetches after its first
frame and reads at once when a key is missed before (core/base/i18n.h). An empty or missing KEYS: no cut.
Usage: page_strings.py IN OUT [--first KEYS --more OUT_MORE --more-path PATH]
"""
import argparse
import json
import os

# msg.f.*: the fleet document's reader (core/explore/fleet.cpp ParseFleetJson), which only the CLI runs: the page plans its
# fleet from the scenario and never reads a fleet document.
PAGE_OMITS = ('cli.', '_about', 'msg.f.')
# Keys said only while the rest of the table is on its way (a field's tooltip before its help has arrived,
# web/ui_scenario.cpp): never looked up by the profile's first frames, yet they must not wait for the rest.
FIRST_ALWAYS = ('ui.help_loading',)


def write(path, table):
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(table, f, ensure_ascii=False, separators=(',', ':'))
        f.write('\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('src')
    ap.add_argument('out')
    ap.add_argument('--first')
    ap.add_argument('--more')
    ap.add_argument('--more-path')
    args = ap.parse_args()
    with open(args.src, encoding='utf-8') as f:
        table = json.load(f)
    page = {k: v for k, v in table.items() if not k.startswith(PAGE_OMITS)}
    first = []
    if args.first and os.path.exists(args.first):
        with open(args.first, encoding='utf-8') as f:
            first = [l.rstrip('\n') for l in f if l.strip() and not l.startswith('#')]
    if not first or not args.more:
        write(args.out, page)
        if args.more:
            write(args.more, {})
        return
    wanted = set(first) | set(FIRST_ALWAYS)
    head = {k: v for k, v in page.items() if k in wanted}
    for k in first:  # looked up, in no table: known absent (no load of the rest for it)
        if k not in page and not k.startswith(PAGE_OMITS):
            head[k] = None
    head['_more'] = args.more_path
    write(args.out, head)
    write(args.more, {k: v for k, v in page.items() if k not in wanted})


if __name__ == '__main__':
    main()
