// field_edit.cpp — one field set from text (field_edit.h).
#include "documents/field_edit.h"

#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "job/validate.h"
#include "money/pricing_model.h"
#include "scenario/fields.h"
#include "scenario/money_input.h"
#include "scenario/quantity.h"
#include "training/loss_fit.h"

namespace gpucost {

// Only the CLI's --set reads text this way: its own refusals are cli.* keys (the page does not embed them).
Message SetFieldProblem(Scenario* s, const std::string& path, const std::string& text, std::string* label,
                        Message* note) {
  const auto refuse = [&path](MessageParam why) { return Message{"fmt.at_path", {path, std::move(why)}}; };
  const FieldSpec* f = FindField(path.c_str());
  if (!f) return refuse(MessageParam::Key("cli.set.unknown_field"));
  // The value as JSON, then the scenario parser on top of *s: one set of rules for files, links and --set.
  nlohmann::json value;
  switch (f->kind) {
    case FieldKind::kText:
    case FieldKind::kEnum: value = text; break;
    case FieldKind::kBool:
      if (text != "true" && text != "false") return refuse(MessageParam::Key("cli.set.bool", {text}));
      value = text == "true";
      break;
    case FieldKind::kNumber:
    case FieldKind::kInteger: {
      double v = 0;
      if (FieldMoneyUnit(*f) != MoneyUnit::kNone) {
        const MoneyTyped m = ParseMoneyField(*s, *f, text);
        if (!m.error.empty()) return refuse(MessageParam::From(m.error_message));
        v = m.stored;
        if (label) *label = m.label;
      } else if (const Message why = FieldInputProblem(*f, text, &v); !why.empty()) {
        return refuse(MessageParam::From(why));
      }
      value = v;
      break;
    }
  }
  nlohmann::json doc = nlohmann::json::object();
  nlohmann::json* at = &doc;
  for (std::size_t start = 0;;) {
    const std::size_t dot = path.find('.', start);
    at = &(*at)[path.substr(start, dot == std::string::npos ? std::string::npos : dot - start)];
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  *at = value;
  const ScenarioParse p = ParseScenarioJson(doc.dump(), *s);
  // This field's own errors; the whole scenario's consistency is checked once every --set is applied.
  for (InputError e : p.errors)
    if (e.path == path || e.path.empty()) {
      if (e.path.empty()) e.path = path;
      return {"fmt.as_is", {InputErrorParam(e)}};
    }
  if (path == "pricing.model" && Model(p.scenario) != Model(*s)) {
    // Issue 45: a price typed for one model is never reused for another.
    const Message switched = SwitchPricingModel(s, Model(p.scenario));
    if (note) *note = switched;
    return {};
  }
  *s = p.scenario;
  return {};
}

std::string SetFieldFromText(Scenario* s, const std::string& path, const std::string& text, std::string* label) {
  return SetFieldProblem(s, path, text, label).Text(Lang::kEn);
}

double ImpliedFieldValue(const char* path, const Scenario& s) {
  return std::strcmp(path, "workload.target_loss") == 0 ? LossReachedBy(s) : 0;
}

double LatencyTargetStart(const char* path, const Scenario& s, const Result& r) {
  const bool ttft = std::strcmp(path, "inference.slo.ttft_ms") == 0, tpot = std::strcmp(path, "inference.slo.tpot_ms") == 0;
  if ((!ttft && !tpot) || !r.ok || !r.inference.present) return 0;
  const double achieved = (ttft ? r.inference.ttft_ms : r.inference.tpot_ms).At(s.inference.slo.percentile);
  if (!(achieved > 0) || !std::isfinite(achieved)) return 0;
  // Two significant digits, up: in steps of 10^(digits of the value - 2), counted as whole steps (no 7.4000000001).
  const int exponent = static_cast<int>(std::floor(std::log10(achieved))) - 1;
  const double scale = std::pow(10.0, std::abs(exponent));
  return exponent >= 0 ? std::ceil(achieved / scale) * scale : std::ceil(achieved * scale) / scale;
}

}  // namespace gpucost
