// ui_scenario.cpp — the scenario editor, built from the field table (fields.h): one generic widget per
// field kind, sections as collapsing headers, tooltips from help + default + source + range, inline errors.
// A value out of range is shown (red) with its error and not applied: the scenario keeps its last good value.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "app.h"
#include "documents/catalog.h"
#include "scenario/fields.h"
#include "base/format.h"
#include "base/i18n.h"
#include "documents/inference_json.h"
#include "scenario/money_input.h"
#include "scenario/quantity.h"
#include "documents/field_edit.h"

namespace gpucost::app {
namespace {

struct Section {
  const char* title;
  const char* keys[2];  // field-table section names shown under this header
  bool open_by_default;
};
const Section kSections[] = {
    {"section.workload", {"workload", nullptr}, true},  // titles: i18n keys
    {"section.hardware", {"hardware", "parallel"}, true},
    {"section.reliability", {"reliability", nullptr}, false},
    {"section.pricing", {"pricing", nullptr}, false},
    {"section.storage", {"storage", nullptr}, false},
    {"section.ownership", {"ownership", nullptr}, false},
    {"section.provider", {"provider", nullptr}, false},
    {"section.model", {"model", nullptr}, false},  // mixture of experts, fine-tuning (issue 18)
    {"inference.section", {"inference", nullptr}, true},  // last (kInferenceSection); for workload.kind = inference only
};
constexpr int kSectionCount = sizeof(kSections) / sizeof(kSections[0]);
constexpr int kInferenceSection = kSectionCount - 1;
const ImVec4 kScenarioErrorColor(1.0f, 0.45f, 0.35f, 1.0f);

int SectionOf(const FieldSpec& f) {
  for (int i = 0; i < kSectionCount; ++i)
    for (const char* key : kSections[i].keys)
      if (key && std::strcmp(key, f.section) == 0) return i;
  return kSectionCount;  // a section this editor does not know yet: "Other"
}

// Only the fields the chosen workload kind uses: the task fields for independent tasks, inference.* for
// serving. (A field hidden keeps its value; it simply does not apply.)
bool FieldUsed(const Scenario& s, const FieldSpec& f) {
  const char* p = f.path;
  const int kind = s.workload.kind;
  if (!std::strcmp(p, "workload.tasks") || !std::strcmp(p, "workload.task_gpu_hours") || !std::strcmp(p, "workload.gpus_per_task"))
    return kind == 1;  // independent
  if (!std::strncmp(p, "inference.", 10)) return kind == 2;  // inference
  return true;
}

}  // namespace

// A field's unit in the page's language ("unitname.<unit>" in assets/i18n; symbols such as "%" stay as they are).
const char* ShownUnit(const FieldSpec& f) {
  const std::string key = std::string("unitname.") + FieldShownUnit(f);
  return HasTranslation(Lang::kEn, key.c_str()) ? Tr(key.c_str()) : FieldShownUnit(f);
}
// The same for a field of scenario s: money in the scenario's currency ("원/kWh" in a KRW scenario).
std::string ShownUnit(const Scenario& s, const FieldSpec& f) {
  return FieldMoneyUnit(f) == MoneyUnit::kNone ? std::string(ShownUnit(f)) : UnitName(ShownMoneyUnitText(s, f));
}
namespace {

constexpr int kUnitColumn = 2;  // a section's table: the field's name, its value, its unit

// A value as field f shows it: money in the scenario's currency (money_input.h), the rest as quantity.h writes it.
std::string ShownValue(const Scenario& s, const FieldSpec& f, double v) {
  return FieldMoneyUnit(f) == MoneyUnit::kNone ? FormatFieldValue(f, v) : FormatShownMoney(s, f, v);
}

}  // namespace

namespace {

// The value the model derives for an automatic field, when the result reports it (0 if not).
double DerivedValue(const FieldSpec& f, const Result& r, const Scenario& s) {
  const char* p = f.path;
  if (const double implied = ImpliedFieldValue(p, s); implied != 0) return implied;  // target loss (field_edit.h)
  if (!r.ok) return 0;
  if (!std::strcmp(p, "cluster.mfu")) return r.mfu;
  if (!std::strcmp(p, "cluster.peak_tflops")) return r.peak_tflops_per_gpu;
  if (!std::strcmp(p, "workload.flops")) return r.flops;
  if (!std::strcmp(p, "reliability.checkpoint_interval_minutes")) return r.checkpoint_interval_minutes;
  if (!std::strcmp(p, "reliability.checkpoint_write_minutes")) return r.checkpoint_write_minutes;
  if (!std::strcmp(p, "reliability.checkpoint_gb")) return r.checkpoint_gb;
  if (!std::strcmp(p, "inference.speculative.tokens_per_step")) return r.inference.spec_draft_tokens;  // 5 with a draft
  return 0;
}

// A starting value when the user turns "auto" off: the derived value if in range (as the field will show it: a
// FLOPs count to four significant digits, quantity.h FieldStartValue), a latency target at what the plan achieves
// (field_edit.h LatencyTargetStart), else a value in range.
double FirstExplicitValue(const FieldSpec& f, const Result& r, const Scenario& s) {
  if (const double target = LatencyTargetStart(f.path, s, r); target != 0 && ValueInRange(f, target)) return target;
  const double derived = DerivedValue(f, r, s);
  if (const double start = FieldStartValue(f, derived); derived != 0 && ValueInRange(f, start)) return start;
  for (double v : {1.0, f.min, f.max})
    if (ValueInRange(f, v)) return v;
  return f.max;
}

// What a field's tooltip says below its path: its help, default, source and allowed range.
void TooltipDetails(const AppState& app, const FieldSpec& f, Lang lang) {
  char def[96];
  // The allowed range from its key, in the page's language (money: amounts in the shown currency).
  const MessageParam range = FieldMoneyUnit(f) != MoneyUnit::kNone ? ShownMoneyRangeMessage(app.scenario, f) : ShownRangeMessage(f);
  if (f.kind == FieldKind::kText) std::snprintf(def, sizeof def, "\"%s\"", f.default_text);
  else if (f.is_auto && f.default_value == 0) std::snprintf(def, sizeof def, "%s", Tr("ui.default_auto"));
  else if (f.kind == FieldKind::kEnum) std::snprintf(def, sizeof def, "%s", f.choices[static_cast<int>(f.default_value)]);
  else if (f.kind == FieldKind::kBool) std::snprintf(def, sizeof def, "%s", Tr(f.default_value != 0 ? "ui.true" : "ui.false"));
  else std::snprintf(def, sizeof def, "%s %s", ShownValue(app.scenario, f, f.default_value).c_str(), ShownUnit(app.scenario, f).c_str());
  ImGui::TextUnformatted(FieldHelp(f, lang));
  ImGui::TextUnformatted(TrFormat("ui.default", {def}).c_str());
  ImGui::TextUnformatted(TrFormat("ui.source", {FieldSource(f, lang)}).c_str());
  ImGui::TextUnformatted(TrFormat("ui.allowed", {RenderParam(lang, range) + (f.is_auto ? Tr("ui.or_auto") : "")}).c_str());
  if (FieldShownAsPercent(f)) ImGui::TextDisabled("%s", Tr("ui.type_percent"));
  else if (f.kind == FieldKind::kNumber || f.kind == FieldKind::kInteger) ImGui::TextDisabled("%s", Tr("ui.type_number"));
  if (FieldMoneyUnit(f) != MoneyUnit::kNone) ImGui::TextDisabled("%s", TrFormat("money.typed_hint", {ShownUnit(app.scenario, f)}).c_str());
}

// A field's path, meaning, default, source and range: in a tooltip on hover, under the field after a tap on a touch
// screen (issue 47). The help, the source and the other words are in the rest of the string table, fetched after
// the first frame: until it has arrived this says so rather than wait for it (the page draws again when it arrives).
void FieldHelpBody(AppState& app, const FieldSpec& f) {
  ImGui::TextDisabled("%s", f.path);
  const Lang lang = CurrentLanguage();
  const std::string help_key = std::string("help.") + f.path;  // (English's rest too: a language falls back to it)
  const bool ready = TranslationReady(lang, help_key.c_str()) && TranslationReady(Lang::kEn, help_key.c_str());
  if (ready) TooltipDetails(app, f, lang);
  else ImGui::TextDisabled("%s", Tr("ui.help_loading"));
  RecordText(app, "tooltip_help", ready ? FieldHelp(f, lang) : Tr("ui.help_loading"));  // (tests: what it said)
}

bool ErrorLines(const AppState& app, std::size_t index);

void Tooltip(AppState& app, std::size_t index) {
  const FieldSpec& f = Fields()[index];
  ImGui::BeginTooltip();
  // 32 em, or the screen's width on a phone (a tooltip wider than the screen is cut).
  ImGui::PushTextWrapPos(std::min(ImGui::GetFontSize() * 32, ImGui::GetIO().DisplaySize.x - ImGui::GetFontSize() * 2));
  if (ErrorLines(app, index)) RecordRect(app, "tooltip_error", static_cast<int>(index));
  FieldHelpBody(app, f);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// Applies a value from a widget (checkbox, combo, "auto"): in range -> the scenario, else rejected.
void ApplyNumber(AppState& app, std::size_t index, double v) {
  const FieldSpec& f = Fields()[index];
  FieldEdit& edit = app.edits[index];
  if (!ValueInRange(f, v)) {
    edit.rejected = true;
    edit.typed = v;
    edit.typed_text = FormatNumber(v, 15);
    edit.coded = {"msg.q_not_allowed", {"\"" + edit.typed_text + "\"", ShownRangeMessage(f)}};
    edit.message = edit.coded.Text(Lang::kEn);
    return;
  }
  edit.rejected = false;
  edit.touched = true;
  if (GetNumber(app.scenario, f) == v) return;
  const Scenario before = app.scenario;
  if (std::strcmp(f.path, "pricing.model") == 0) {
    // Issue 45: the model switches the one way every path does (the pricing table's row, a pin, --set): its price
    // re-derived, said in the status line.
    const Message note = SwitchPricingModel(&app.scenario, static_cast<PricingModel>(static_cast<int>(v)));
    AppScenarioEdited(app);
    AppSetNotice(app, note);
    return;
  }
  SetNumber(app.scenario, f, v);
  AppFollowShape(app, before);
  AppScenarioEdited(app);
}

// Applies typed text through the one quantity parser (quantity.h): "70B", "2e3", "10%" are used as typed;
// anything else is shown back as typed with its message and not applied.
void ApplyTyped(AppState& app, std::size_t index, const char* text) {
  const FieldSpec& f = Fields()[index];
  double v = 0;
  // Money in the scenario's currency, or in the other one ("₩5,000", "$3.5"): converted at the scenario's
  // dated rate, and said so (money_input.h).
  std::string message, label;
  Message coded;
  if (FieldMoneyUnit(f) != MoneyUnit::kNone) {
    const MoneyTyped money = ParseMoneyField(app.scenario, f, text);
    message = money.error;
    coded = money.error_message;
    label = money.label;
    v = money.stored;
  } else {
    coded = FieldInputProblem(f, text, &v);
    message = coded.Text(Lang::kEn);
  }
  if (message.empty()) {
    ApplyNumber(app, index, v);
    if (!label.empty()) app.notice = label;  // after the edit (which clears the notice)
    return;
  }
  FieldEdit& edit = app.edits[index];
  // Keystrokes apply as they make a value ("7", "70" on the way to "70X"): a refused text puts back what
  // the field held before this edit, so the scenario never keeps a prefix of what was typed.
  if (edit.editing && GetNumber(app.scenario, f) != edit.value_at_start) {
    SetNumber(app.scenario, f, edit.value_at_start);
    AppScenarioEdited(app);
  }
  edit.rejected = true;
  edit.typed_text = text;
  edit.message = message;
  edit.coded = coded;
}

// A field another one replaces (a won quote replaces the dollar price): its place shows the value in use, named.
void OverriddenValue(AppState& app, const FieldSpec& f, const FieldSpec& by) {
  char label[96];
  FieldLabel(by, label, sizeof label);
  const std::string shown = TrFormat("ui.overridden_by", {ShownValue(app.scenario, by, GetNumber(app.scenario, by)), label});
  ImGui::AlignTextToFramePadding();
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", shown.c_str());
  ImGui::PopTextWrapPos();
  RecordRect(app, f.path);
  RecordText(app, "overridden_value", shown);
}

void NumberWidget(AppState& app, std::size_t index) {
  const FieldSpec& f = Fields()[index];
  FieldEdit& edit = app.edits[index];
  const double current = GetNumber(app.scenario, f);
  if (const FieldSpec* by = FieldOverriddenBy(app.scenario, f)) return OverriddenValue(app, f, *by);  // issue 47
  // An automatic field the scenario cannot leave on auto (a draft model's acceptance rate): no "auto" box, an empty
  // field that says it is required, and the reason below it (issue 47: a ticked auto that was an error).
  bool required = false;
  if (f.is_auto && current == 0 && !edit.rejected)
    for (const InputError& e : app.problems) required = required || e.path == f.path;
  if (f.is_auto && !required) {
    bool is_auto = current == 0 && !edit.rejected;
    const bool clicked = ImGui::Checkbox((std::string(Tr("ui.auto")) + "###auto").c_str(), &is_auto);
    RecordRect(app, f.path);  // the field is its box while on auto (tests: a click turns auto off)
    if (clicked) {
      edit.rejected = false;
      SetNumber(app.scenario, f, is_auto ? 0 : FirstExplicitValue(f, app.result, app.scenario));
      if (!is_auto) app.focus_field = static_cast<int>(index);  // the keys typed next go into the field
      AppScenarioEdited(app);
      return;
    }
    if (is_auto) {
      const double derived = DerivedValue(f, app.result, app.scenario);
      if (derived != 0) {
        ImGui::SameLine();
        // What the model derived, read at a glance: four significant digits ("14.63"), not all 15; FLOPs in their
        // unit's steps ("975.5 EFLOP", never "9.755e+20", issue 47).
        const double digits = std::pow(10.0, 3 - std::floor(std::log10(std::fabs(derived))));
        const std::string shown = std::strcmp(f.unit, "FLOPs") == 0 ? FormatFlops(derived)
                                                                    : FormatFieldValue(f, std::round(derived * digits) / digits);
        ImGui::TextDisabled("%s", shown.c_str());
      }
      return;
    }
    ImGui::SameLine();
  }
  ImGui::SetNextItemWidth(-1);
  if (app.focus_field == static_cast<int>(index)) {
    ImGui::SetKeyboardFocusHere();
    app.focus_field = -1;
  }
  if (edit.rejected) ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0.45f, 0.12f, 0.1f, 1));
  // While the field is being edited ImGui keeps its own copy of the text; this buffer is what it shows
  // otherwise (and what editing starts from).
  char text[80];
  std::snprintf(text, sizeof text, "%s", edit.rejected ? edit.typed_text.c_str() : required ? "" : ShownValue(app.scenario, f, current).c_str());
  const bool changed = ImGui::InputTextWithHint("##v", required ? Tr("ui.required") : "", text, sizeof text, ImGuiInputTextFlags_AutoSelectAll);
  if (ImGui::IsItemActivated()) {
    edit.editing = true;
    edit.value_at_start = current;
  }
  if (ImGui::IsItemDeactivated()) edit.editing = false;
  if (edit.rejected) ImGui::PopStyleColor();
  RecordRect(app, f.path, -1, ImGui::CalcTextSize(text).x + ImGui::GetStyle().FramePadding.x * 2);
  RecordText(app, f.path, text);  // what the field shows (tests: "975.5E", never "9.755e+20")
  if (changed) ApplyTyped(app, index, text);
}

// The width a combo needs to show `preview` whole (text, padding and the arrow button).
float ComboNeeds(const char* preview) {
  return ImGui::CalcTextSize(preview).x + ImGui::GetStyle().FramePadding.x * 2 + ImGui::GetFrameHeight();
}

// Issue 50: a slice of the scenario's GPU, picked from that GPU's MIG profiles (or whole GPUs), not typed: the
// walk-through's typed "3g" was a refused scenario at every keystroke. A profile a file gave that the GPU lacks
// shows as it is, refused by the validation (the message names cluster.partition).
void PartitionPicker(AppState& app, const FieldSpec& f, char* text) {
  const char* whole = Tr("ui.partition_whole");
  const char* preview = text[0] ? text : whole;
  if (ImGui::BeginCombo("##v", preview)) {
    // The GPU's profiles only once the list is open (MigOf reads them then: not in the page's first load).
    const GpuSpec* gpu = FindGpu(app.scenario.cluster.gpu);
    const std::vector<MigProfile>* profiles = gpu ? &MigOf(*gpu).profiles : nullptr;
    if (ImGui::Selectable(whole, text[0] == '\0')) {
      text[0] = '\0';
      AppScenarioEdited(app);
    }
    RecordRect(app, "partition_choice", 0);
    for (std::size_t i = 0; profiles && i < profiles->size(); ++i) {
      const std::string& name = (*profiles)[i].name;
      if (ImGui::Selectable(name.c_str(), name == text)) {
        std::snprintf(text, TextCapacity(f), "%s", name.c_str());
        AppScenarioEdited(app);
      }
      RecordRect(app, "partition_choice", static_cast<int>(i) + 1);
    }
    if (!profiles || profiles->empty()) ImGui::TextDisabled("%s", Tr("ui.partition_no_mig"));
    ImGui::EndCombo();
  }
  RecordRect(app, f.path, -1, ComboNeeds(preview));
}

void TextWidget(AppState& app, std::size_t index) {
  const FieldSpec& f = Fields()[index];
  char* text = static_cast<char*>(f.ref(app.scenario));
  ImGui::SetNextItemWidth(-1);
  if (std::strcmp(f.path, "cluster.gpu") == 0) {  // a catalog id: offer the catalog
    const GpuSpec* current = FindGpu(text);
    // The full name when it fits, else the catalog id (the full name in the tooltip).
    const char* preview = current && ComboNeeds(current->name.c_str()) <= ImGui::GetContentRegionAvail().x ? current->name.c_str() : text;
    if (ImGui::BeginCombo("##v", preview)) {
      for (std::size_t g = 0; g < GpuCount(); ++g) {
        const GpuSpec& gpu = Gpus()[g];
        if (ImGui::Selectable(gpu.name.c_str(), current == &gpu)) {
          std::snprintf(text, TextCapacity(f), "%s", gpu.id.c_str());
          AppScenarioEdited(app);
          AppGpuChanged(app);  // an offer for another GPU no longer confirms the price
        }
        RecordRect(app, "gpu_choice", static_cast<int>(g));
      }
      ImGui::EndCombo();
    }
    RecordRect(app, f.path, -1, ComboNeeds(preview));
    if (preview == text && current && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", current->name.c_str());
    return;
  }
  if (std::strcmp(f.path, "pricing.offer") == 0) return DrawOfferPicker(app);
  if (std::strcmp(f.path, "cluster.partition") == 0) return PartitionPicker(app, f, text);
  if (ImGui::InputText("##v", text, TextCapacity(f))) {
    // At most TextMaxChars characters of any script (the name: 200): a longer paste is cut at a character
    // boundary and the field says so, the way a form's maxlength does.
    std::string typed = text;
    const long max_chars = static_cast<long>(TextMaxChars(f));
    if (Utf8Length(typed) > max_chars) {
      std::size_t cut = 0;
      for (long chars = 0; cut < typed.size() && chars < max_chars; ++chars)
        do ++cut; while (cut < typed.size() && (static_cast<unsigned char>(typed[cut]) & 0xC0) == 0x80);
      text[cut] = '\0';
      app.notice = TrFormat("ui.text_cut", {f.path, std::to_string(max_chars)});
    }
    AppScenarioEdited(app);
  }
  RecordRect(app, f.path);
}

void FieldWidget(AppState& app, std::size_t index) {
  const FieldSpec& f = Fields()[index];
  switch (f.kind) {
    case FieldKind::kNumber:
    case FieldKind::kInteger: NumberWidget(app, index); break;
    case FieldKind::kText: TextWidget(app, index); break;
    case FieldKind::kBool: {
      bool v = GetNumber(app.scenario, f) != 0;
      if (ImGui::Checkbox("##v", &v)) ApplyNumber(app, index, v ? 1 : 0);
      RecordRect(app, f.path);
      break;
    }
    case FieldKind::kEnum: {
      int v = static_cast<int>(GetNumber(app.scenario, f));
      int count = 0;
      while (f.choices[count]) ++count;
      ImGui::SetNextItemWidth(-1);
      // Each choice in the page's language ("choice.<path>.<value>"); the JSON keeps the value.
      std::vector<const char*> shown_choices(static_cast<std::size_t>(count));
      for (int c = 0; c < count; ++c) {
        const std::string key = std::string("choice.") + f.path + "." + f.choices[c];
        shown_choices[c] = HasTranslation(Lang::kEn, key.c_str()) ? Tr(key.c_str()) : f.choices[c];
      }
      const char* shown = v >= 0 && v < count ? shown_choices[v] : "";
      if (ImGui::Combo("##v", &v, shown_choices.data(), count)) ApplyNumber(app, index, v);
      RecordRect(app, f.path, -1, ComboNeeds(shown));
      break;
    }
  }
}

// Dimmed text wrapped only at spaces (ImGui's wrap also breaks after '.' and ',', which would split "$2,084.78").
void TextDisabledWords(const std::string& text) {
  const float avail = ImGui::GetContentRegionAvail().x, space = ImGui::CalcTextSize(" ").x;
  float x = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find(' ', start);
    if (end == start + 1 && text[start] == '=') end = text.find(' ', end + 1);  // "= $3.47/kWh" stays together
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const float w = ImGui::CalcTextSize(word.c_str()).x;
    if (start > 0 && x + space + w <= avail) {
      ImGui::SameLine(0, space);
      x += space + w;
    } else {
      x = w;
    }
    ImGui::TextDisabled("%s", word.c_str());
    start = end + 1;
  }
}

// A field's errors in red (the text refused as typed, the scenario's problems at the field): under the field, and at
// the top of its tooltip, which would otherwise cover them. True when there is one.
bool ErrorLines(const AppState& app, std::size_t index) {
  const FieldSpec& f = Fields()[index];
  const FieldEdit& edit = app.edits[index];
  if (edit.rejected)
    ImGui::TextColored(kScenarioErrorColor, "%s", TrFormat("ui.kept", {edit.coded.empty() ? edit.message : edit.coded.Text(CurrentLanguage()), ShownValue(app.scenario, f, GetNumber(app.scenario, f))}).c_str());
  bool any = edit.rejected;
  for (const InputError& e : app.problems)
    if (e.path == f.path) {
      ImGui::TextColored(kScenarioErrorColor, "%s", e.Body(CurrentLanguage()).c_str());
      any = true;
    }
  return any;
}

// An error appearing under the field being typed in is scrolled into sight, once: at the editor's end it was below
// the screen's edge on a phone, a scroll away.
void KeepInSight(FieldEdit& edit) {
  if (edit.editing && !edit.error_shown && ImGui::GetItemRectMax().y > ImGui::GetWindowPos().y + ImGui::GetWindowHeight())
    ImGui::SetScrollHereY(1.0f);
  edit.error_shown = true;
}

void FieldErrors(AppState& app, std::size_t index) {
  const FieldSpec& f = Fields()[index];
  ImGui::PushTextWrapPos(0);
  if (ErrorLines(app, index)) {
    RecordRect(app, "field_error", static_cast<int>(index));
    KeepInSight(app.edits[index]);
  } else {
    app.edits[index].error_shown = false;
  }
  // Money shown in another currency than it is stored in: what the figure stands for, at which dated rate.
  const double money = FieldMoneyUnit(f) != MoneyUnit::kNone ? GetNumber(app.scenario, f) : 0;  // 0 (or auto): nothing to say
  if (const std::string label = money != 0 ? MoneyConversionLabel(app.scenario, f, money, MoneyUnit::kNone, false) : "";
      !label.empty()) {
    TextDisabledWords(label);
    RecordText(app, f.path, label);
  }
  ImGui::PopTextWrapPos();
}

void FieldRow(AppState& app, std::size_t index) {
  const FieldSpec& f = Fields()[index];
  char label[96];
  FieldLabel(f, label, sizeof label);
  ImGui::PushID(static_cast<int>(index));
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  const bool measured = AppFieldMeasured(app, index);
  ImGui::PushTextWrapPos(0);  // a long name takes two lines in its column rather than being cut
  if (measured) ImGui::TextColored(ImVec4(0.45f, 0.85f, 0.5f, 1), "%s", TrFormat("ui.measured_label", {label}).c_str());  // from a probe report
  else if (IsDefault(app.scenario, f)) ImGui::TextUnformatted(label);
  else ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1), "%s", label);  // changed from the default
  ImGui::PopTextWrapPos();
  RecordRect(app, "label", static_cast<int>(index));
  const int at = static_cast<int>(index);
  if (app.touch && ImGui::IsItemClicked()) app.help_field = app.help_field == at ? -1 : at;  // a tap opens or closes it
  if (!app.touch && measured && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", TrFormat("ui.measured_tip", {app.measured_from}).c_str());
  else if (!app.touch && ImGui::IsItemHovered()) Tooltip(app, index);
  ImGui::TableNextColumn();
  // A field without a unit (every list of choices, the GPU, the offer, a name) takes the unit's empty cell too: the
  // value column alone, what a phone leaves beside the names and the section's widest unit, cut the Korean choices.
  const std::string unit = ShownUnit(app.scenario, f);
  const float value_right = unit.empty() ? BeginCellSpan(kUnitColumn) : 0;
  FieldWidget(app, index);
  if (!app.touch && ImGui::IsItemHovered()) Tooltip(app, index);
  if (unit.empty()) EndCellSpan(value_right);
  FieldErrors(app, index);
  if (app.help_field == at) {  // the tapped name's help, under the field, across the value column
    ImGui::PushTextWrapPos(0);
    if (measured) ImGui::TextDisabled("%s", TrFormat("ui.measured_tip", {app.measured_from}).c_str());
    FieldHelpBody(app, f);
    ImGui::PopTextWrapPos();
    RecordRect(app, "field_help", at);
  }
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::PushTextWrapPos(0);
  ImGui::TextDisabled("%s", unit.c_str());
  ImGui::PopTextWrapPos();
  RecordRect(app, "unit", static_cast<int>(index));
  ImGui::PopID();
}

bool FieldShown(const AppState& app, int section, std::size_t i) {
  return SectionOf(Fields()[i]) == section && FieldUsed(app.scenario, Fields()[i]) && !InferenceHidesField(app.scenario, Fields()[i].path);
}

// The unit column as wide as the longest word among the section's units (a unit wraps only at its spaces: issue 47
// saw "바이트/토 / 큰" and "KRW/mont / h" on a phone), at least `least` and at most a third of the panel.
float UnitColumnWidth(const AppState& app, int section, float least) {
  float widest = least;
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    if (!FieldShown(app, section, i)) continue;
    const std::string unit = ShownUnit(app.scenario, Fields()[i]);
    for (std::size_t start = 0; start <= unit.size();) {
      std::size_t end = unit.find(' ', start);
      if (end == std::string::npos) end = unit.size();
      widest = std::max(widest, ImGui::CalcTextSize(unit.c_str() + start, unit.c_str() + end).x);
      start = end + 1;
    }
  }
  return std::min(widest, ImGui::GetContentRegionAvail().x / 3);
}

void SectionTable(AppState& app, int section) {
  const float em = ImGui::GetFontSize();
  const bool narrow = AppNarrow(app);  // a phone: names and units wrap in narrower columns, values keep their digits
  // The units are the last column: the table ends where the panel's content does, a gap before its edge
  // (app.cpp EndContentBeforeEdge; the widest unit, "nats/token" on a phone, touched the scrollbar).
  const float unit_width = UnitColumnWidth(app, section, em * (narrow ? 4.5f : 7));
  if (!ImGui::BeginTable("fields", 3, ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("field", ImGuiTableColumnFlags_WidthFixed, em * (narrow ? 8 : 12));
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableSetupColumn("unit", ImGuiTableColumnFlags_WidthFixed, unit_width);
  for (std::size_t i = 0; i < FieldCount(); ++i)
    if (FieldShown(app, section, i)) FieldRow(app, i);
  ImGui::EndTable();
}

}  // namespace

// The label of a field in the page's language ("field.<path>" in assets/i18n), else from its path:
// "pricing.spot.notice_seconds" -> "spot notice seconds".
void FieldLabel(const FieldSpec& f, char* buf, std::size_t cap) {
  const std::string key = std::string("field.") + f.path;
  if (HasTranslation(Lang::kEn, key.c_str())) {
    std::snprintf(buf, cap, "%s", Tr(key.c_str()));
    return;
  }
  const char* dot = std::strchr(f.path, '.');
  std::snprintf(buf, cap, "%s", dot ? dot + 1 : f.path);
  for (char* c = buf; *c; ++c)
    if (*c == '.' || *c == '_') *c = ' ';
}

// inference.load_profile (issue 28; core/serving/inference_day.h): not a field of the table (a preset name or 24
// numbers in a file), picked here by name; a file's own 24 numbers show as "custom" and stay until another is
// picked. Autoscaling (inference.autoscale.*) follows it.
void LoadProfilePicker(AppState& app) {
  InferenceLoadProfileInputs& lp = app.scenario.inference.load_profile;
  const char* const keys[] = {"inference.profile_none", "inference.profile_flat", "inference.profile_business_day",
                              "inference.profile_consumer_evening", "inference.profile_custom"};
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(Tr("inference.load_profile"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
  const int current = std::clamp(lp.profile, 0, static_cast<int>(LoadProfile::kCustom));
  const bool open = ImGui::BeginCombo("##load_profile", Tr(keys[current]));
  if (ImGui::IsItemHovered() && !open) ImGui::SetTooltip("%s", Tr("inference.load_profile_tooltip"));
  RecordRect(app, "load_profile");
  if (!open) return;
  for (int i = 0; i < static_cast<int>(LoadProfile::kCustom); ++i) {  // custom comes from a file, not from here
    if (ImGui::Selectable(Tr(keys[i]), current == i) && current != i) {
      lp = InferenceLoadProfileInputs{};
      lp.profile = i;
      AppScenarioEdited(app);
    }
    RecordRect(app, "load_profile_choice", i);
  }
  ImGui::EndCombo();
}

void DrawScenarioEditor(AppState& app) {
  ImGui::PushTextWrapPos(0);
  Hint(Tr(app.touch ? "ui.scenario_hint_touch" : "ui.scenario_hint"));  // no hover on a touch screen (issue 47)
  ImGui::PopTextWrapPos();
  if (ImGui::SmallButton((std::string(Tr("ui.reset")) + "###reset").c_str())) {
    app.scenario = DefaultScenario();
    app.edits.assign(FieldCount(), FieldEdit{});
    AppScenarioEdited(app);
  }
  RecordRect(app, "reset");
  DrawModelPicker(app);
  for (int k = 0; k <= kSectionCount; ++k) {
    const int s = k == 1 ? kInferenceSection : k > 1 && k <= kInferenceSection ? k - 1 : k;  // inference after workload
    const std::string title = std::string(Tr(s < kSectionCount ? kSections[s].title : "section.other")) + "###section";
    bool any = false;
    for (std::size_t i = 0; i < FieldCount() && !any; ++i) any = FieldShown(app, s, i);
    if (!any || (s == kInferenceSection && Kind(app.scenario) != WorkloadKind::kInference)) continue;
    ImGui::PushID(s);
    const ImGuiTreeNodeFlags flags = s < kSectionCount && kSections[s].open_by_default ? ImGuiTreeNodeFlags_DefaultOpen : 0;
    const bool open = ImGui::CollapsingHeader(title.c_str(), flags);
    RecordRect(app, "section", s);
    if (open) SectionTable(app, s);
    if (open && s == kInferenceSection) LoadProfilePicker(app);
    ImGui::PopID();
  }
}

}  // namespace gpucost::app
