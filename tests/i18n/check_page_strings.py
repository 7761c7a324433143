#!/usr/bin/env python3
"""Fails when a user-visible English literal is left in the page's panels (issue 16).

Every string literal in web/ui_*.cpp, web/app*.cpp and web/chart.cpp that holds an English word must either
go through the string tables (an i18n key such as "plan.search" given to Tr/TrFormat, or a field path), or be
an ImGui ID / widget-record ID / API name that is never drawn. What counts as "never drawn":
  - the literal is an argument of an ID or plumbing call (RecordRect, PushID, BeginTable, strcmp, ...);
  - the part before "##" of an ImGui label ("##v", "Label###id": the visible part must be empty);
  - a TableSetupColumn name in a table without TableHeadersRow (the name is only an ID there);
  - a comparison (== "x", != "x");
  - format specifiers, HTML tags and technical tokens that read the same in Korean (MFU, TTFT, P50, ...).
Anything else needs an entry in ALLOW below, with the reason it is not user-visible text to translate.
usage: check_page_strings.py <repository root>
"""
import pathlib
import re
import sys

ID_CALLS = {
    "Tr", "TrFormat", "HasTranslation", "RecordRect", "RecordWindow", "RecordText", "RecordScroll", "RecordPanelEdge", "PushID", "BeginTable",
    "BeginChild", "BeginTabBar", "InvisibleButton", "DownloadFile", "RequestFont", "strcmp", "strncmp",
    "FindField", "FindOffer", "FindModel", "FindGpu", "getenv", "find", "rfind", "compare", "OpenPopup",
    "static_assert", "PickFile", "BeginFigureTable", "SidewaysTableHeight", "ProfileInput", "RecordRectAt", "FleetSpec",
    "WrappedRow", "RecordCell", "WrappedCombo",
}
# Calls whose identifier-shaped literal ("cost_vs_gpus", "th") is a widget ID or an HTML tag, never text.
ID_FIRST_CALLS = {"DrawLineChart", "DrawStackedBar", "DrawHistogram", "Histogram", "Breakdown", "DrawCapacityBar", "Cell", "PlanRows", "FigureCell"}
IDENTIFIER = re.compile(r'^[a-z0-9_]+$')
# Tokens that are written the same way in Korean text (units, acronyms, percentiles, names).
TECH = {
    "TP", "PP", "DP", "SP", "EP", "CP", "ZeRO", "MFU", "HFU", "GPU", "TTFT", "TPOT", "P50", "P90", "P99", "USL",
    "Amdahl", "KRW", "USD", "GB", "GiB", "TB", "KiB", "MiB", "ms", "gpucost", "CSV", "JSON", "n/a", "TFLOP",
}
# (file, regular expression on the literal's line, reason). Keep it short.
ALLOW = [
    ("web/ui_compare.cpp", r'^\s*\{"[^"]+", "[^"]+", \[\]',
     "kMetrics: the comparison CSV's metric and unit keys (CSV column keys stay English; the page shows kMetricKeys)"),
    ("web/ui_compare.cpp", r'"metric,unit"', "the comparison CSV's header row (CSV keys stay English)"),
    ("web/ui_sheet.cpp", r'",text"', "the provider sheet CSV's unit column (CSV keys stay English)"),
    ("web/app.cpp", r'kViewNames\[\] = ', "view names of the window.gpucost API; tabs show view.<n> from the tables"),
    ("web/app.cpp", r'kModelLabels\[\] = ', "pricing-model words in generated scenario names (data, kept in links)"),
    ("web/app_views.cpp", r'.', "window.gpucost.view() document names (an API contract), never drawn"),
    ("web/app_lang.cpp", r'label = "Korean"', "the switch's label until the Hangul font has arrived (no glyphs yet)"),
    ("web/app_lang.cpp", r'\.ttf"', "font file names"),
    ("web/ui_scenario.cpp", r'^\s*\{"(section|inference)\.[a-z]+", \{"', "field-table section names (data) beside their title keys"),
    ("web/ui_compare.cpp", r'"text/csv;charset=utf-8"|"gpucost-comparison\.csv"', "file name and MIME type"),
    ("web/ui_share.cpp", r'"(scenario|result)\.json"|"application/json"', "file names and MIME type"),
    ("web/ui_sheet.cpp", r'"gpucost-provider-sheet\.csv"|"text/csv', "file name and MIME type"),
    ("web/ui_presets.cpp", r'"preset\." \+ p\.id \+ "\.title"', "the string-table key of a preset's title"),
    ("web/ui_presets.cpp", r'"preset\." \+ p\.id \+ "\.notes"', "the string-table key of a preset's notes"),
    ("web/ui_charts.cpp", r'^constexpr McChartIds k', "widget record IDs of the Monte Carlo charts (window.gpucost.widget)"),
    ("web/ui_evidence.cpp", r'"validation/[a-z_]+\.json"', "file names of the validation runs the view fetches"),
    ("web/ui_actual.cpp", r'"(actual\.part|log\.format)\." \+ ', "string-table key prefixes (a part's or a log format's name)"),
    ("web/ui_actual.cpp", r'WaterfallSpec spec\{"actual_waterfall"', "the waterfall's widget ID (window.gpucost.widgetRect)"),
]

LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
KEY_SHAPED = re.compile(r'^[a-z0-9_]+(\.[A-Za-z0-9_/ -]+)+$|^[a-z0-9_]+\.$')  # i18n keys, field paths, key prefixes
FORMAT = re.compile(r'%[-+ 0#]*\d*(?:\.\d+)?(?:ll|l|z|h)?[a-zA-Z%]')
WORD = re.compile(r'[A-Za-z][A-Za-z0-9/]*')


def strip_comments(src):
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == '\\' else 1
            out.append(src[i:j + 1]); i = j + 1
        elif c == "'":
            j = i + 1
            while j < n and src[j] != "'":
                j += 2 if src[j] == '\\' else 1
            out.append(" " * (j + 1 - i)); i = j + 1  # a char literal: blank (keeps offsets)
        elif src.startswith("//", i):
            j = src.find("\n", i); j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i) + 2
            out.append(re.sub(r'[^\n]', ' ', src[i:j])); i = j
        else:
            out.append(c); i += 1
    return "".join(out)


def enclosing_call(src, pos):
    """The name of the innermost call whose parentheses hold position pos ('' if none in this statement)."""
    depth = 0
    i = pos - 1
    while i >= 0:
        c = src[i]
        if c in ")]":
            depth += 1
        elif c in "([":
            if depth == 0:
                if c == "[":
                    return ""
                m = re.search(r'([A-Za-z_][A-Za-z0-9_]*)\s*$', src[:i])
                return m.group(1) if m else ""
            depth -= 1
        elif c in ";{}" and depth == 0:
            if c == "{":  # an initializer list inside a call: keep looking outward
                i -= 1
                continue
            return ""
        i -= 1
    return ""


def visible_words(text):
    text = text.split("##", 1)[0]
    text = FORMAT.sub(" ", text)
    text = re.sub(r'</?[a-z0-9]+>|&[a-z]+;', " ", text)
    text = text.replace("\\n", " ").replace('\\"', " ")
    return [w for w in WORD.findall(text) if len(w) >= 2 and w not in TECH]


def problems(root):
    files = sorted(list(root.glob("web/ui_*.cpp")) + list(root.glob("web/app*.cpp")) + [root / "web/chart.cpp"])
    found = []
    for path in files:
        rel = path.relative_to(root).as_posix()
        raw = path.read_text(encoding="utf-8")
        src = strip_comments(raw)
        lines = raw.split("\n")
        for m in LITERAL.finditer(src):
            text = m.group(1)
            line_no = src.count("\n", 0, m.start()) + 1
            line = lines[line_no - 1]
            if line.lstrip().startswith("#include"):
                continue
            if text.startswith("cli.") and KEY_SHAPED.match(text):  # the page embeds no "cli." key: it would show raw
                found.append(f"{rel}:{line_no}: \"{text}\": a CLI key, not in the page's string table (give the page its own key)")
                continue
            if not visible_words(text) or KEY_SHAPED.match(text):
                continue
            call = enclosing_call(src, m.start())
            if call in ID_CALLS or (call in ID_FIRST_CALLS and IDENTIFIER.match(text)):
                continue
            if re.search(r'[=!]=\s*$', src[:m.start()]):
                continue
            if call == "TableSetupColumn":
                rest = src[m.end():]
                headers, end = rest.find("TableHeadersRow"), rest.find("EndTable")
                if headers < 0 or (0 <= end < headers):
                    continue  # no header row: the name is only an ID
            if call == "Begin" and text == "gpucost":
                continue  # the main window's ID (no title bar)
            if any(rel == f and re.search(rx, line) for f, rx, _ in ALLOW):
                continue
            found.append(f"{rel}:{line_no}: \"{text}\" ({call or 'no call'}): English text not from the string tables")
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    found = problems(root)
    for p in found:
        print(p)
    # The scanner itself: a planted literal must be caught, a key and an ID must not.
    planted = 'ImGui::Button("Search layouts"); ImGui::Text("%s", Tr("plan.search")); RecordRect(app, "search layouts");'
    src = strip_comments(planted)
    caught = [m.group(1) for m in LITERAL.finditer(src)
              if visible_words(m.group(1)) and not KEY_SHAPED.match(m.group(1)) and enclosing_call(src, m.start()) not in ID_CALLS]
    if caught != ["Search layouts"]:
        print(f"scanner self-check failed: {caught}")
        return 1
    print(f"{len(found)} English literal(s) outside the string tables")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
