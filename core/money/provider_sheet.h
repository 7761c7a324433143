// provider_sheet.h — the provider comparison sheet: for each option compared, the same facts side by side,
// beyond the price (hardware, terms, data location and security, support and SLA). One document, drawn by the
// page's Compare view and written into its CSV export; the facts come from the scenarios (provider.* fields,
// cluster and pricing fields, the GPU catalog), so they travel with the comparison in share links and files.
// An unanswered item is "" (shown as "ask the provider"). A domestic data location is necessary, not
// sufficient: the security items stay open until the provider answers them.
#pragma once
#include <string>
#include <vector>

#include "base/i18n.h"
#include "scenario/scenario.h"

namespace gpucost {

enum class SheetGroup : int { kHardware = 0, kTerms, kSecurity };

struct SheetRow {
  std::string key;                  // stable: the field path ("provider.cpu") or a derived fact ("gpu_model")
  SheetGroup group;
  std::vector<std::string> values;  // one per column; "" = unanswered
};

struct ProviderSheetDoc {
  std::vector<SheetRow> rows;
  std::vector<int> open_security_items;  // per column: security rows still unanswered
};

// The sheet for `columns` (the comparison's scenarios, in order). Labels: i18n key "sheet.<key>" or
// "field.<key>"; money in each column's display currency (FormatMoney). An answer that is still the text of the
// column's catalog offer's fact is given in `lang` where the offer has it (a Korean provider's facts, issue 47).
ProviderSheetDoc BuildProviderSheet(const std::vector<Scenario>& columns, Lang lang = Lang::kEn);

// The i18n key of a row's label.
std::string SheetLabelKey(const SheetRow& row);

}  // namespace gpucost
