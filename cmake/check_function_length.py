#!/usr/bin/env python3
"""check_function_length.py CORE_DIR [LIMIT] — no function of the core is longer than LIMIT lines (120; issue 48).

A function is a definition that starts at column 0 (its signature may run over several lines) and ends at the
first line that is a lone "}" (the project's format: clang-format, namespaces closed by "}  // namespace").
Its length counts the lines from the signature to that brace. Prints every function over the limit and fails.
"""
import os
import re
import sys

SIGNATURE = re.compile(r'^(?!namespace\b|struct\b|class\b|enum\b|union\b|extern\b|#|//|using\b|template\b)[A-Za-z_].*\(')


def functions(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        line = lines[i]
        if SIGNATURE.match(line) and not line.rstrip().endswith(';'):
            j = i
            while j < len(lines) and not lines[j].rstrip().endswith('{') and not lines[j].rstrip().endswith(';'):
                j += 1
            if j < len(lines) and lines[j].rstrip().endswith('{'):
                k = j + 1
                while k < len(lines) and lines[k] != '}':
                    k += 1
                yield i + 1, k - i + 1, line.strip()
                i = k + 1
                continue
        i += 1


def main():
    core = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 120
    long_ones = []
    for folder, _, names in os.walk(core):
        for name in sorted(names):
            if name.endswith(('.cpp', '.h')):
                path = os.path.join(folder, name)
                for line, length, signature in functions(path):
                    if length > limit:
                        long_ones.append((length, os.path.relpath(path, core), line, signature))
    for length, path, line, signature in sorted(long_ones, reverse=True):
        print(f'core/{path}:{line}: {length} lines (limit {limit}): {signature[:100]}')
    if long_ones:
        print(f'{len(long_ones)} function(s) of the core over {limit} lines: split each into the steps it takes.')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
