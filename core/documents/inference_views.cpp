// inference_views.cpp — serving options side by side and the serving refusals (inference_views.h).
#include "job/validate.h"
#include "documents/inference_views.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include <nlohmann/json.hpp>

#include "job/evaluate.h"
#include "serving/inference_model.h"
#include "explore/inference_plan.h"
#include "job/result.h"
#include "money/offers.h"
#include "scenario/json_io.h"

namespace gpucost {
namespace {

constexpr std::int64_t kMaxOptionTp = 8;

// The scenario's own GPU of a family ("h100", "a100") in either pool, else `fallback`.
std::string FamilyGpu(const Scenario& s, const char* family, const char* fallback) {
  for (const InferencePoolInputs* pool : {&s.inference.decode, &s.inference.prefill}) {
    const GpuSpec* g = InferencePoolGpu(s, *pool);
    if (g && g->id.compare(0, std::strlen(family), family) == 0) return g->id;
  }
  return fallback;
}

const PricedGpu* Priced(const std::vector<PricedGpu>& gpus, const std::string& id) {
  for (const PricedGpu& g : gpus)
    if (g.gpu->id == id) return &g;
  return nullptr;
}

// Better of two evaluated shapes for the same option: one that fits and meets the target beats one that does
// not; then the lower cost per request; then fewer GPUs.
bool Better(const Result& a, const Result& b) {
  auto rank = [](const Result& r) { return !r.ok ? 0 : !r.inference.fits ? 1 : !r.inference.slo_met ? 2 : 3; };
  if (rank(a) != rank(b)) return rank(a) > rank(b);
  if (!a.ok) return false;
  if (a.inference.usd_per_request != b.inference.usd_per_request)
    return a.inference.usd_per_request < b.inference.usd_per_request;
  return a.inference.gpus < b.inference.gpus;
}

// The option's replica shape: tensor parallelism 1, 2, 4 or 8 for each pool (those the heads permit), each
// evaluated with its replicas sized for the load and the target; the cheapest per request that fits and meets
// the target is kept (issue 28: a scenario's own TP can need 1,288 A100s where a wider replica needs far fewer).
Scenario Sized(const Scenario& s, InferenceCandidate c, Result* r, int* shapes) {
  static constexpr std::int64_t kTps[] = {1, 2, 4, kMaxOptionTp};
  Scenario best;
  bool have = false;
  *shapes = 0;
  for (std::int64_t ptp : kTps) {
    if (!c.disaggregated && ptp != 1) break;  // colocated: one pool (decode_tp)
    for (std::int64_t dtp : kTps) {
      InferenceCandidate x = c;
      x.prefill_tp = c.disaggregated ? ptp : dtp;
      x.decode_tp = dtp;
      Scenario sc = ApplyInferenceCandidate(s, x);
      if (!ValidateScenario(sc).empty()) continue;  // heads do not divide
      Result res = Evaluate(sc);
      ++*shapes;
      if (!have || Better(res, *r)) {
        best = sc;
        *r = res;
        have = true;
      }
    }
  }
  if (!have) {  // no shape is valid: the scenario's own, for its error
    best = ApplyInferenceCandidate(s, c);
    *r = Evaluate(best);
  }
  return best;
}

// The scenario with the precisions a candidate's GPUs run: a GPU without FP8 (A100) serves FP8 weights at INT8
// (else BF16) and an FP8 KV cache at BF16. Returns what was changed (empty if nothing), for the column's label.
Message RunnablePrecisions(const InferenceCandidate& c, Scenario* s) {
  auto errors_on = [&](const char* path) {
    for (const InputError& e : ValidateScenario(ApplyInferenceCandidate(*s, c)))
      if (e.path == path) return true;
    return false;
  };
  std::string weights;
  if (errors_on("inference.weight_precision")) {
    s->inference.weight_precision = static_cast<int>(WeightPrecision::kInt8);
    if (errors_on("inference.weight_precision")) s->inference.weight_precision = static_cast<int>(WeightPrecision::kBf16);
    weights = WeightPrecisionName(static_cast<WeightPrecision>(s->inference.weight_precision));
  }
  bool kv = false;
  if (errors_on("inference.kv_precision")) {
    s->inference.kv_precision = static_cast<int>(KvPrecision::kBf16);
    kv = true;
  }
  if (!weights.empty()) return kv ? Message{"serving.prec_both", {weights}} : Message{"serving.prec_weights", {weights}};
  return kv ? Message{"serving.prec_kv", {}} : Message{};
}

// "H100 SXM5 80GB" for "NVIDIA H100 SXM5 80GB": the catalog name without the maker (column labels are short).
std::string ShortName(const GpuSpec& g) { return g.name.rfind("NVIDIA ", 0) == 0 ? g.name.substr(7) : g.name; }

MessageParam PriceNote(const PricedGpu& g) {
  const std::string price = FormatParam("%.4g", g.usd_per_gpu_hour);
  if (g.source == "the scenario") return MessageParam::Key("serving.price_scenario", {ShortName(*g.gpu), price});
  return MessageParam::Key("serving.price_offer", {ShortName(*g.gpu), price, g.source});
}

// Issue 45: one source prices every GPU type the options compare, named in the document. The scenario when it
// prices both GPUs itself (its own price for cluster.gpu, its pools' prices); else one provider's offer sheet that
// lists both on demand (the scenario's offer's provider when it does, else the one with the cheapest H100), at one
// date where it can; the scenario's own price for one of them is then not mixed with another source's for the
// other (an H100 at a typed USD 2.99 beside an A100 from a sheet whose H100 is USD 3.99). Prices before tax, with
// tax when the scenario's prices include it. Returns false when no single source prices both (then the cheapest
// offer per GPU, said so in the note).
bool OneSource(const Scenario& s, const std::string& h100, const std::string& a100, PricedGpu* ph, PricedGpu* pa,
               Message* source) {
  const std::vector<PricedGpu> mixed = PricedGpus(s);
  const PricedGpu* mh = Priced(mixed, h100);
  const PricedGpu* ma = Priced(mixed, a100);
  if (mh && ma && mh->source == "the scenario" && ma->source == "the scenario") {
    *ph = *mh, *pa = *ma;
    *source = {"serving.source_scenario", {}};
    return true;
  }
  const double with_tax = s.pricing.price_includes_tax ? 1 + s.pricing.tax_rate : 1.0;
  const Offer* own = s.pricing.offer[0] ? FindOffer(s.pricing.offer) : nullptr;
  const Offer *best_h = nullptr, *best_a = nullptr;
  for (std::size_t i = 0; i < OfferCount(); ++i) {
    const Offer& oh = Offers()[i];
    if (oh.gpu != h100 || oh.model != PricingModel::kOnDemand || oh.usd_per_gpu_hour <= 0) continue;
    for (std::size_t k = 0; k < OfferCount(); ++k) {
      const Offer& oa = Offers()[k];
      if (oa.gpu != a100 || oa.model != PricingModel::kOnDemand || oa.usd_per_gpu_hour <= 0 || oa.provider != oh.provider) continue;
      if (oa.region != oh.region && oa.date != oh.date) continue;  // one sheet: the same region or the same day
      const bool theirs = own && own->provider == oh.provider;
      const bool best_theirs = best_h && own && own->provider == best_h->provider;
      if (!best_h || (theirs && !best_theirs) ||
          (theirs == best_theirs && oh.usd_per_gpu_hour + oa.usd_per_gpu_hour < best_h->usd_per_gpu_hour + best_a->usd_per_gpu_hour))
        best_h = &oh, best_a = &oa;
    }
  }
  if (!best_h) {
    if (!mh || !ma) return false;
    *ph = *mh, *pa = *ma;
    *source = {"serving.source_mixed", {}};
    return true;
  }
  *ph = {mh ? mh->gpu : FindGpu(h100.c_str()), best_h->usd_per_gpu_hour * with_tax, best_h->id + " (" + best_h->date + ")"};
  *pa = {ma ? ma->gpu : FindGpu(a100.c_str()), best_a->usd_per_gpu_hour * with_tax, best_a->id + " (" + best_a->date + ")"};
  *source = {"serving.source_offers", {best_h->provider, best_h->id, best_h->date, best_a->id, best_a->date}};
  if (mh && mh->source == "the scenario") *source = {"serving.source_not_mixed", {MessageParam::From(*source), h100}};
  return true;
}

}  // namespace

bool ServingOptions(const Scenario& s, Comparison* out, Message* error) {
  if (Kind(s) != WorkloadKind::kInference) {
    *error = {"msg.serving_options", {MessageParam::Key("msg.sim_not_inference")}};
    return false;
  }
  if (const std::vector<InputError> problems = ValidateScenario(s); !problems.empty()) {
    *error = {"msg.serving_options", {InputErrorParam(problems.front())}};
    return false;
  }
  const std::string h100 = FamilyGpu(s, "h100", "h100-sxm"), a100 = FamilyGpu(s, "a100", "a100-sxm-80gb");
  PricedGpu h{nullptr, 0, ""}, a{nullptr, 0, ""};
  Message source;
  if (!OneSource(s, h100, a100, &h, &a, &source) || !h.gpu || !a.gpu) {
    *error = {"msg.serving_options", {MessageParam::Key("msg.options_no_price", {h.gpu ? a100 : h100})}};
    return false;
  }
  const PricedGpu* ph = &h;
  const PricedGpu* pa = &a;
  const std::int64_t prefill_tp = InferencePoolTp(s, s.inference.prefill), decode_tp = InferencePoolTp(s, s.inference.decode);
  struct Option {
    const char* label;
    bool split;
    const PricedGpu *prefill, *decode;
  };
  const Option options[kServingOptionCount] = {{"Colocated", false, ph, ph}, {"Colocated", false, pa, pa}, {"Split", true, ph, pa}};
  std::vector<CompareColumn> columns;
  for (const Option& o : options) {
    InferenceCandidate c;
    c.disaggregated = o.split;
    c.prefill_gpu = o.prefill->gpu->id;
    c.decode_gpu = o.decode->gpu->id;
    c.prefill_tp = o.split ? prefill_tp : decode_tp;
    c.decode_tp = decode_tp;
    c.prefill_usd_per_gpu_hour = o.prefill->usd_per_gpu_hour;
    c.decode_usd_per_gpu_hour = o.decode->usd_per_gpu_hour;
    c.max_batch = s.inference.max_batch;
    CompareColumn col;
    Scenario base = s;
    const Message precisions = RunnablePrecisions(c, &base);
    int shapes = 0;
    col.scenario = Sized(base, c, &col.result, &shapes);
    const std::int64_t ptp = InferencePoolTp(col.scenario, col.scenario.inference.prefill);
    const std::int64_t dtp = InferencePoolTp(col.scenario, col.scenario.inference.decode);
    // Label and note as keys (rendered in the reader's language, issue 47), their English in label and note.
    const MessageParam shape = o.split ? MessageParam::Key("serving.option_split", {ShortName(*o.prefill->gpu), std::to_string(ptp),
                                                                                     ShortName(*o.decode->gpu), std::to_string(dtp)})
                                       : MessageParam::Key("serving.option_colocated", {ShortName(*o.decode->gpu), std::to_string(dtp)});
    col.label_message = precisions.empty() ? Message{"fmt.as_is", {shape}}
                                           : Message{"serving.option_with", {shape, MessageParam::From(precisions)}};
    col.label = col.label_message.Text(Lang::kEn);
    std::snprintf(col.scenario.name, sizeof col.scenario.name, "%s", col.label.c_str());
    const MessageParam prices = o.split ? MessageParam::Key("serving.note_split", {PriceNote(*o.prefill), PriceNote(*o.decode)})
                                        : PriceNote(*o.decode);
    const MessageParam precision = precisions.empty() ? MessageParam("")
                                                      : MessageParam::Key("serving.note_precision", {MessageParam::From(precisions)});
    MessageParam invalid("");
    if (const std::vector<InputError> problems = ValidateScenario(col.scenario); !problems.empty())
      invalid = MessageParam::Key("serving.note_invalid", {InputErrorParam(problems.front())});
    col.note_message = {"serving.note", {prices, precision, invalid, MessageParam::Key("serving.note_shape", {std::to_string(shapes)})}};
    col.note = col.note_message.Text(Lang::kEn);
    columns.push_back(std::move(col));
  }
  // A set-up that needs far more GPUs than the cheapest is flagged (a 4x larger fleet is a different risk:
  // capacity to find, failures, and a bill that follows any price change 4x as hard).
  const CompareColumn* cheapest = nullptr;
  for (const CompareColumn& col : columns)
    if (col.result.ok && col.result.inference.fits && (!cheapest || Better(col.result, cheapest->result))) cheapest = &col;
  if (cheapest) {
    const std::int64_t base_gpus = cheapest->result.inference.gpus;
    for (CompareColumn& col : columns)
      if (col.result.ok && base_gpus > 0 && col.result.inference.gpus > kServingGpusWarnRatio * base_gpus)
        col.result.warnings.Add("serving_many_gpus", "msg.w_serving_many_gpus",
                                {std::to_string(col.result.inference.gpus), std::to_string(kServingGpusWarnRatio),
                                 std::to_string(base_gpus), MessageParam::From(cheapest->label_message)});
  }
  *out = CompareScenarios(std::move(columns));
  out->price_source_message = source;
  out->price_source = source.Text(Lang::kEn);  // the document's words: the same in every language
  return true;
}

bool PinnedServingOptions(const Scenario& s, const std::vector<Scenario>& pinned, Comparison* out) {
  if (Kind(s) != WorkloadKind::kInference || pinned.size() != kServingOptionCount) return false;
  Comparison c;
  Message error;
  if (!ServingOptions(s, &c, &error) || c.columns.size() != pinned.size()) return false;
  for (std::size_t i = 0; i < pinned.size(); ++i)
    if (ScenarioToJson(c.columns[i].scenario, false, -1) != ScenarioToJson(pinned[i], false, -1)) return false;
  *out = std::move(c);
  return true;
}

const char* ServingRefusalKey(ServingQuestion q) {
  return q == ServingQuestion::kGpuSweep ? "serving.refuse_gpu_sweep" : "serving.refuse_fleet";
}

bool IsInferenceScenario(const std::string& json_text) {
  const nlohmann::json doc = nlohmann::json::parse(json_text, nullptr, false);
  if (!doc.is_object() || doc.value("schema", "") != "gpucost/scenario@1") return false;
  const auto w = doc.find("workload");
  return w != doc.end() && w->is_object() && w->value("kind", "") == "inference";
}

}  // namespace gpucost
