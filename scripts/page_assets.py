#!/usr/bin/env python3
"""Writes the WebAssembly build's copies of the embedded data files: the same JSON without whitespace and without
the top-level keys that only document the file for people ("conventions", "..._why"), which no code reads, and the
GPUs' datasheet citations, which only the CLI prints.

The page's first load carries every embedded asset (docs/bundle-size.md); indentation and the documentation keys
are ~1 KB of it gzipped. The files in assets/ stay as they are (the CLI embeds them verbatim). Run at build time
(cmake/Assets.cmake). Usage: page_assets.py ROOT OUT_ROOT FILE... (each FILE under ROOT, written to the same
relative path under OUT_ROOT). The presets among them (ROOT/presets/*.json) are written together as well, as the
one file the page fetches after its first frame: OUT_ROOT/presets.json, {"presets/<id>.json": {...}, ...}
(core/documents/presets.cpp).
"""
import json
import os
import sys


def main():
    root, out_root, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    presets = {}
    for path in files:
        with open(path, encoding='utf-8') as f:
            doc = json.load(f)
        if isinstance(doc, dict):
            doc = {k: v for k, v in doc.items() if k != 'conventions' and not k.endswith('_why')}
        # The GPUs' datasheet citations are printed by `gpucost catalog gpus` only; the page draws none of them
        # (its TCO notes read server_source and server_price_source, which stay): ~1.5 KB gzip of the first load.
        if os.path.basename(path) == 'gpus.json' and isinstance(doc.get('gpus'), list):
            doc['gpus'] = [{k: v for k, v in g.items() if k != 'source'} for g in doc['gpus']]
            # Likewise the MIG profiles' citations (issue 50): `gpucost catalog gpus` prints them.
            for g in doc['gpus']:
                if isinstance(g.get('mig'), dict):
                    # ... and the profiles themselves: NVIDIA's layout is the same on every GPU with MIG, the names
                    # follow from the memory (core/hardware/catalog.cpp StandardMigProfiles; a test checks that they
                    # equal the listed ones for every GPU): ~0.3 KB gzip of the first load.
                    g['mig'] = {k: v for k, v in g['mig'].items() if k not in ('source', 'sm_share_source', 'profiles')}
        rel = os.path.relpath(path, root).replace(os.sep, '/')
        if rel.startswith('presets/'):
            presets[rel] = doc
        out = os.path.join(out_root, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, 'w', encoding='utf-8') as f:
            json.dump(doc, f, ensure_ascii=False, separators=(',', ':'))
    with open(os.path.join(out_root, 'presets.json'), 'w', encoding='utf-8') as f:
        json.dump(dict(sorted(presets.items())), f, ensure_ascii=False, separators=(',', ':'))


if __name__ == '__main__':
    main()
