#!/usr/bin/env python3
"""Splits the page's WebAssembly in two after the link (web/CMakeLists.txt runs it as a post-build step).

emcc -sSPLIT_MODULE leaves SITE/app.wasm.orig (the whole program, with function names) and an instrumented
SITE/app.wasm. This keeps in app.wasm the functions listed in web/first_frame_funcs.txt (what the first frames
ran, recorded by tests/browser/profile_first_frame.mjs) and moves the rest to app.deferred.wasm, which the page
fetches after its first frame (web/index.html). A function missing from the list is only slower to reach, never
wrong: calling it before app.deferred.wasm has arrived loads that at once. The instrumented module and the whole
one are kept in WORK for the profiler. Then app.js is minified with terser (Debian's node-terser) when present.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def lambda_free(name):
    return re.sub(r'\$_\d+', '$_', name)


def run_split(args, orig, site_wasm, keep):
    """Runs wasm-split keeping `keep` in app.wasm; returns the names kept and the names split out."""
    keep_file = os.path.join(args.work, 'keep.txt')
    with open(keep_file, 'w', encoding='utf-8') as f:
        f.write('\n'.join(keep) + '\n')
    cmd = [args.wasm_split, '-all', orig, '--keep-funcs=@' + keep_file, '-o1', site_wasm,
           '-o2', os.path.join(args.site, 'app.deferred.wasm'), '--export-prefix=%',
           '--placeholder-namespace=placeholder', '--import-namespace=primary', '-v']
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit('split_wasm: wasm-split failed:\n' + out.stderr[-4000:] + out.stdout[-4000:])
    text = out.stdout + out.stderr
    kept = re.search(r'^Keeping functions: (.*)$', text, re.M)
    split = re.search(r'^Splitting out functions: (.*)$', text, re.M)
    return (kept.group(1).split(', ') if kept else []), (split.group(1).split(', ') if split else [])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--site', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--keep', required=True)
    ap.add_argument('--wasm-split', default='wasm-split')
    ap.add_argument('--node', default='node')
    ap.add_argument('--minify', required=True, help='scripts/minify_js.cjs')
    args = ap.parse_args()

    os.makedirs(args.work, exist_ok=True)
    site_wasm = os.path.join(args.site, 'app.wasm')
    orig = os.path.join(args.work, 'app.orig.wasm')
    instrumented = os.path.join(args.work, 'app.instrumented.wasm')
    if os.path.exists(site_wasm + '.orig'):  # a fresh link; else a rerun on an already split site
        shutil.move(site_wasm + '.orig', orig)
        shutil.move(site_wasm, instrumented)
    if not os.path.exists(orig):
        sys.exit('split_wasm: no app.wasm.orig in %s (link with -sSPLIT_MODULE)' % args.site)

    keep = [l.rstrip('\n') for l in open(args.keep, encoding='utf-8') if l.strip() and not l.startswith('#')]
    # A lambda's name carries its number in the translation unit ($_12): any change to a unity batch renumbers
    # it and the listed name is gone, so the lambda would be fetched with app.deferred.wasm at the first frame.
    # Names that are gone are matched again with the number left out (the same function's lambda of the same
    # signature). wasm-split echoes every name it is asked to keep, so the module's own names are those it
    # splits out when asked to keep none.
    functions = set(run_split(args, orig, site_wasm, [])[1])
    keep_set = set(keep)
    gone = {lambda_free(k) for k in keep if k not in functions}
    renamed = sorted(n for n in functions if n not in keep_set and lambda_free(n) in gone)
    kept, split = run_split(args, orig, site_wasm, keep + renamed)
    kept = [k for k in kept if k in functions]
    matched = {lambda_free(n) for n in renamed}
    stale = sum(1 for k in keep if k not in functions and lambda_free(k) not in matched)
    print('split_wasm: %d functions in app.wasm, %d in app.deferred.wasm%s%s' % (
        len(kept), len(split), ' (%d lambdas matched with their number left out)' % len(renamed) if renamed else '',
        '' if stale <= 0 else
        ' (%d names of web/first_frame_funcs.txt are gone: scripts/profile_first_frame.sh refreshes it)' % stale))

    js = os.path.join(args.site, 'app.js')
    m = subprocess.run([args.node, args.minify, js, js], capture_output=True, text=True,
                       env=dict(os.environ, NODE_PATH='/usr/share/nodejs'))
    print(('split_wasm: ' + m.stdout.strip()) if m.returncode == 0 else
          'split_wasm: app.js left unminified (%s)' % (m.stderr.strip().splitlines() or ['?'])[-1])


if __name__ == '__main__':
    main()
