#!/usr/bin/env python3
"""Splits the page's WebAssembly in two after the link (web/CMakeLists.txt runs it as a post-build step).

emcc -sSPLIT_MODULE leaves SITE/app.wasm.orig (the whole program, with function names) and an instrumented
SITE/app.wasm. This keeps in app.wasm the functions listed in web/first_frame_funcs.txt (what the first frames
ran, recorded by tests/browser/profile_first_frame.mjs) and moves the rest to app.deferred.wasm, which the page
fetches after its first frame (web/index.html). A function missing from the list is only slower to reach, never
wrong: calling it before app.deferred.wasm has arrived loads that at once. The instrumented module and the whole
one are kept in WORK for the profiler. Then app.js is minified with terser (Debian's node-terser) when present.

The names that join the two modules are made short (docs/bundle-size.md): app.wasm imports its placeholders from
namespace `p` (wasm-split's default, `placeholder`, was 10 more bytes on each of ~870 imports of the first load),
app.deferred.wasm imports from namespace `m` (was `primary`), and the functions app.wasm exports to it are renamed
from wasm-split's `%a`, `%b`... to the shortest names its other exports leave free, and each placeholder, named by
the table slot it fills, has the slot in base 36 instead of decimal (shorten_split_names). app.js (emscripten's
placeholder handler) and index.html name the same namespaces; app.js reads the slot in base 36.

Each module is then optimised again on its own (optimise_split): wasm-opt -Oz over the split modules finds what it
could not over the whole program, with the link's limit on inlining functions of one caller (larger ones inlined
made app.deferred.wasm 4 KB larger gzip, though smaller raw), and the features the page already uses.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def lambda_free(name):
    return re.sub(r'\$_\d+', '$_', name)


# The namespaces that join the two modules (web/index.html's `{m: Module.asm}` names IMPORT_NS too).
PLACEHOLDER_NS, IMPORT_NS, EXPORT_PREFIX = 'p', 'm', '%'


def leb(data, i):
    """An unsigned LEB128 at data[i]: (value, index after it)."""
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7f) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def put_leb(value):
    out = bytearray()
    while True:
        byte = value & 0x7f
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def put_name(name):
    raw = name.encode('utf-8')
    return put_leb(len(raw)) + raw


def read_name(data, i):
    n, i = leb(data, i)
    return data[i:i + n].decode('utf-8'), i + n


def sections(data):
    """[(id, start of the payload, end of it)] of a WebAssembly binary."""
    if data[:8] != b'\0asm\1\0\0\0':
        sys.exit('split_wasm: not a WebAssembly binary')
    out, i = [], 8
    while i < len(data):
        sid = data[i]
        size, j = leb(data, i + 1)
        out.append((sid, j, j + size))
        i = j + size
    return out


def limits(data, i):
    flags, i = leb(data, i)
    _, i = leb(data, i)
    if flags & 1:
        _, i = leb(data, i)
    return i


def rewrite_section(data, sid, rewrite):
    """data with the payload of its one section `sid` replaced by rewrite(payload)."""
    found = [(s, a, b) for s, a, b in sections(data) if s == sid]
    if len(found) != 1:
        sys.exit('split_wasm: expected one section %d, found %d' % (sid, len(found)))
    _, a, b = found[0]
    head = a - 1
    while data[head - 1] & 0x80:  # back over the size's LEB128 to the section id
        head -= 1
    head -= 1
    payload = rewrite(data[a:b])
    return data[:head] + bytes([sid]) + put_leb(len(payload)) + payload + data[b:]


def map_exports(payload, rename):
    """The export section with each name passed through rename(name, kind); the names in order."""
    count, i = leb(payload, 0)
    out, names = bytearray(put_leb(count)), []
    for _ in range(count):
        name, i = read_name(payload, i)
        kind = payload[i]
        index, i = leb(payload, i + 1)
        names.append((name, kind))
        out += put_name(rename(name, kind)) + bytes([kind]) + put_leb(index)
    return bytes(out), names


def map_imports(payload, rename):
    """The import section with each (module, name) passed through rename(module, name, kind)."""
    count, i = leb(payload, 0)
    out = bytearray(put_leb(count))
    for _ in range(count):
        module, i = read_name(payload, i)
        name, i = read_name(payload, i)
        kind, start = payload[i], i + 1
        if kind == 0:  # function: type index
            _, i = leb(payload, start)
        elif kind == 1:  # table: element type, limits
            i = limits(payload, start + 1)
        elif kind == 2:  # memory: limits
            i = limits(payload, start)
        elif kind == 3:  # global: value type, mutability
            i = start + 2
        elif kind == 4:  # tag: attribute, type index
            _, i = leb(payload, start + 1)
        else:
            sys.exit('split_wasm: unknown import kind %d' % kind)
        out += put_name(module) + put_name(rename(module, name, kind)) + payload[start - 1:i]
    return bytes(out)


def short_names(taken):
    """a, b, ..., Z, aa, ab, ...: names that are not in `taken`."""
    alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'
    length = 1
    while True:
        for k in range(len(alphabet) ** length):
            name = ''
            for _ in range(length):
                k, r = divmod(k, len(alphabet))
                name = alphabet[r] + name
            if name not in taken:
                yield name
        length += 1


def base36(n):
    digits = ''
    while True:
        n, r = divmod(n, 36)
        digits = '0123456789abcdefghijklmnopqrstuvwxyz'[r] + digits
        if not n:
            return digits


def shorten_split_names(primary_path, secondary_path):
    """Renames the exports wasm-split made for app.deferred.wasm (EXPORT_PREFIX + a short name) to the shortest
    names free among app.wasm's exports, in both modules, and app.wasm's placeholder imports (named by the table
    slot they fill, in decimal) to the same slot in base 36. Returns the bytes saved."""
    primary, secondary = open(primary_path, 'rb').read(), open(secondary_path, 'rb').read()
    export_section = [(a, b) for s, a, b in sections(primary) if s == 7]
    _, names = map_exports(primary[export_section[0][0]:export_section[0][1]], lambda n, k: n)
    taken = {n for n, _ in names if not n.startswith(EXPORT_PREFIX)}
    fresh = short_names(taken)
    renamed = {n: next(fresh) for n, _ in names if n.startswith(EXPORT_PREFIX)}
    exported = {}
    def export_name(name, kind):
        new = renamed.get(name, name)
        exported[new] = kind
        return new
    def import_name(module, name, kind):
        if module != IMPORT_NS:
            sys.exit('split_wasm: app.deferred.wasm imports from %r, not only %r' % (module, IMPORT_NS))
        new = renamed.get(name, name)
        if exported.get(new) != kind:
            sys.exit('split_wasm: app.deferred.wasm imports %r (%r), which app.wasm does not export' % (name, new))
        return new
    def placeholder_name(module, name, kind):  # the table slot a placeholder stands for, in base 36 (app.js reads it)
        if module != PLACEHOLDER_NS:
            return name
        if not name.isdigit():
            sys.exit('split_wasm: placeholder %r is not a table index' % name)
        return base36(int(name))
    new_primary = rewrite_section(primary, 7, lambda p: map_exports(p, export_name)[0])
    new_primary = rewrite_section(new_primary, 2, lambda p: map_imports(p, placeholder_name))
    new_secondary = rewrite_section(secondary, 2, lambda p: map_imports(p, import_name))
    if len(set(exported)) != len(names):
        sys.exit('split_wasm: renamed exports collide')
    with open(primary_path, 'wb') as f:
        f.write(new_primary)
    with open(secondary_path, 'wb') as f:
        f.write(new_secondary)
    return len(primary) + len(secondary) - len(new_primary) - len(new_secondary)


def name_namespaces_in_js(js):
    """Emscripten's app.js names wasm-split's default namespaces (`placeholder`, `primary`) and reads a placeholder's
    name as a decimal table slot: name ours instead, and read the slot in base 36."""
    with open(js, encoding='utf-8') as f:
        text = f.read()
    text = re.sub(r"['\"]?placeholder['\"]?\s*:\s*new Proxy\(", PLACEHOLDER_NS + ':new Proxy(', text)
    text = re.sub(r"\{\s*['\"]?primary['\"]?\s*:\s*Module(\[['\"]asm['\"]\]|\.asm)\s*\}",
                  '{' + IMPORT_NS + ':Module.asm}', text)
    # The placeholder's name is its table slot in base 36 (shorten_split_names).
    text = text.replace('wasmTable.get(prop).apply(', 'wasmTable.get(parseInt(prop,36)).apply(')
    if (text.count(PLACEHOLDER_NS + ':new Proxy(') != 1 or text.count('{' + IMPORT_NS + ':Module.asm}') != 1 or
            len(re.findall(r'\.get\(parseInt\(\w+,\s*36\)\)\.apply\(', text)) != 1):
        sys.exit('split_wasm: app.js does not name the split\'s namespaces as expected (emscripten changed?)')
    with open(js, 'w', encoding='utf-8') as f:
        f.write(text)


# wasm-opt over each module after the split: the link's settings (web/CMakeLists.txt), and only the features the
# page's WebAssembly already uses (native exceptions; mutable globals, as emscripten exports the stack pointer).
OPTIMISE = ['-Oz', '--one-caller-inline-max-function-size=100',
            '--enable-exception-handling', '--enable-mutable-globals']


def optimise_split(wasm_opt, paths):
    """wasm-opt OPTIMISE over each of `paths` in place, at once (one per core). Returns the bytes saved."""
    before = sum(os.path.getsize(p) for p in paths)
    runs = [subprocess.Popen([wasm_opt] + OPTIMISE + [p, '-o', p + '.opt'], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True) for p in paths]
    for p, run in zip(paths, runs):
        out = run.communicate()[0]
        if run.returncode != 0:
            sys.exit('split_wasm: wasm-opt failed on %s:\n%s' % (p, out[-4000:]))
        os.replace(p + '.opt', p)
    return before - sum(os.path.getsize(p) for p in paths)


def run_split(args, orig, site_wasm, keep):
    """Runs wasm-split keeping `keep` in app.wasm; returns the names kept and the names split out."""
    keep_file = os.path.join(args.work, 'keep.txt')
    with open(keep_file, 'w', encoding='utf-8') as f:
        f.write('\n'.join(keep) + '\n')
    cmd = [args.wasm_split, '-all', orig, '--keep-funcs=@' + keep_file, '-o1', site_wasm,
           '-o2', os.path.join(args.site, 'app.deferred.wasm'), '--export-prefix=' + EXPORT_PREFIX,
           '--placeholder-namespace=' + PLACEHOLDER_NS, '--import-namespace=' + IMPORT_NS, '-v']
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
    ap.add_argument('--wasm-opt', default='', help="default: the wasm-opt beside wasm-split")
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

    deferred = os.path.join(args.site, 'app.deferred.wasm')
    wasm_opt = args.wasm_opt or os.path.join(os.path.dirname(shutil.which(args.wasm_split) or args.wasm_split),
                                             'wasm-opt')
    if not os.path.exists(wasm_opt):
        sys.exit('split_wasm: no wasm-opt (%s)' % wasm_opt)
    saved = optimise_split(wasm_opt, [site_wasm, deferred])
    print('split_wasm: each module optimised again (%d bytes): app.wasm %d, app.deferred.wasm %d bytes' % (
        saved, os.path.getsize(site_wasm), os.path.getsize(deferred)))
    saved = shorten_split_names(site_wasm, deferred)
    print('split_wasm: the names joining the two modules shortened (%d bytes)' % saved)

    js = os.path.join(args.site, 'app.js')
    name_namespaces_in_js(js)
    m = subprocess.run([args.node, args.minify, js, js], capture_output=True, text=True,
                       env=dict(os.environ, NODE_PATH='/usr/share/nodejs'))
    print(('split_wasm: ' + m.stdout.strip()) if m.returncode == 0 else
          'split_wasm: app.js left unminified (%s)' % (m.stderr.strip().splitlines() or ['?'])[-1])


if __name__ == '__main__':
    main()
