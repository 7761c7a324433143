// compare_csv.h — a comparison as one CSV for finance (issue 30): what `gpucost compare --format csv` writes and
// what the page's "Export CSV" downloads, byte for byte. UTF-8 with a byte-order mark (spreadsheet programs then
// read 원 and Hangul names), one column per scenario headed by its name, one row per item:
//   key (stable, English), item (in the language asked for), unit, then one value per scenario.
// Rows: the currency; each cost part that is not zero in some column; supply price (before VAT), VAT, total;
// the VAT rate and whether the typed price included it; the committed term after the job; time, GPUs,
// GPU-hours, goodput, MFU; the exchange rate and its date; the offer and its date; serving figures when a column
// is an inference scenario; the provider sheet rows. Money is in the comparison's currency (compare.h), rounded
// to its smallest unit (cents, whole won); a column whose job is not priced leaves its result rows empty.
#pragma once
#include <string>

#include "documents/compare.h"
#include "base/i18n.h"

namespace gpucost {

// A column's name in the CSV (and the page's pinned column): the scenario's name, else "<GPU> x<count> <model>" in the
// reader's language ("h100-sxm x16 on-demand", "h100-sxm 16장 온디맨드").
std::string ScenarioDisplayName(const Scenario& s, Lang lang);

std::string ComparisonCsv(const Comparison& c, Lang lang);

}  // namespace gpucost
