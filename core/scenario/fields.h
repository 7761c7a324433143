// fields.h — the one table that describes every scenario field: JSON path, kind, default, allowed range,
// unit, and (in the string tables) its meaning and the default's source. Parsing, validation, serialisation (only non-defaults), share
// links, the UI editor's tooltips, sweeps and the sensitivity analysis all read this table.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "base/message.h"
#include "scenario/scenario.h"

namespace gpucost {

enum class FieldKind { kNumber, kInteger, kBool, kEnum, kText };

struct FieldSpec {
  const char* path;            // JSON path, e.g. "reliability.gpu_mtbf_hours"
  FieldKind kind;
  void* (*ref)(Scenario&);     // where the value lives
  double default_value;        // number/integer; bool as 0/1; enum as index
  const char* default_text;    // kText only
  double min, max;             // allowed range (numbers/integers)
  bool min_exclusive;          // the range is (min, max]
  bool is_auto;                // 0 means "not given": the model derives it (absent from JSON)
  const char* const* choices;  // kEnum: the names, nullptr-terminated
  const char* unit;            // "GPUs", "hours", "USD/GPU-hour", ...
  const char* section;         // UI section: workload, hardware, parallel, reliability, pricing, storage, ownership
};  // its meaning and its default's source: FieldHelp, FieldSource

// What the field means (and what "auto" does), and where its default comes from: text in the string tables, keys
// "help.<path>" and "source.<path>" (assets/i18n/<lang>.json; the page reads them after its first frame, with
// the rest of its table). FieldSource is "-" for a field whose default needs no citation (a label, an example).
const char* FieldHelp(const FieldSpec& f, Lang lang);
const char* FieldSource(const FieldSpec& f, Lang lang);

// All fields, in UI order.
const FieldSpec* Fields();
std::size_t FieldCount();
const FieldSpec* FindField(const char* path);

// Numeric read/write through the table (number, integer, bool, enum). Text fields return 0 / are ignored.
double GetNumber(const Scenario& s, const FieldSpec& f);
void SetNumber(Scenario& s, const FieldSpec& f, double v);
const char* GetText(const Scenario& s, const FieldSpec& f);

// True when the field holds its default (text compared by content).
bool IsDefault(const Scenario& s, const FieldSpec& f);
// The field whose value replaces f's in scenario s, or nullptr (issue 47): pricing.krw_per_gpu_hour, when given,
// is the GPU-hour price (a won quote stays in won) and pricing.usd_per_gpu_hour is not read. An editor shows the
// replacing value in f's place rather than f's own (0 after a quote).
const FieldSpec* FieldOverriddenBy(const Scenario& s, const FieldSpec& f);
// True when two scenarios hold the same value in the field (text compared by content).
bool SameValue(const Scenario& a, const Scenario& b, const FieldSpec& f);

// The range as text, for messages and tooltips: "> 0 and <= 1", "0 to 3", "one of: bf16, fp16, ...".
// Writes into buf (NUL-terminated, truncated to cap).
void DescribeRange(const FieldSpec& f, char* buf, std::size_t cap);
// The same as a string-table key and its parameters (message.h), for messages in any language; with
// with_auto, a field that may be omitted says "(omit for automatic)".
MessageParam RangeMessage(const FieldSpec& f, bool with_auto = false);
// "a number > min and <= max" (or ">= min") as a key and its parameters, the bounds already written; for readers of
// other documents (probe reports, fleet files) and shown ranges too.
MessageParam NumberRangeMessage(const std::string& min, const std::string& max, bool min_exclusive);
std::string RangeText(const FieldSpec& f, Lang lang, bool with_auto = false);  // RangeMessage(f, with_auto) in a language

// Text fields: the buffer size in bytes (including the NUL) and the most characters (code points) allowed.
std::size_t TextCapacity(const FieldSpec& f);
std::size_t TextMaxChars(const FieldSpec& f);  // f.max when given, else what the buffer holds
// Number of characters of valid UTF-8 `text`, or -1 when it is not valid UTF-8.
long Utf8Length(const std::string& text);

// Checks one numeric value against the field's kind and range (not auto-ness). Returns true if allowed.
bool ValueInRange(const FieldSpec& f, double v);

// Why a field set is not used (FieldsNotUsed), each said by its own warning (evaluate.cpp):
//   kKind      this kind of workload does not read it: a training job's physics (layout, checkpoints, data
//              pipeline, MFU) on a service, the serving inputs (inference.*) on a training or independent job;
//   kMfuGiven  only the step-time model reads it, and cluster.mfu is given: the model's prediction sets no time;
//   kNoShape   only the step-time model reads it, and without a model shape and a global batch it predicts nothing
//              (CanPredictStep false: the MFU is the default or the fit of scaling.points);
//   kNoExperts a serving input read only for a model with routed experts (inference.fused_moe_finalize,
//              inference.moe_split), on a dense model; inference.moe_split also without data-parallel attention;
//   kNotFp8    inference.weight_scaling (how fp8 weights are scaled) with weights in another precision.
enum class NotUsedWhy : int { kKind = 0, kMfuGiven, kNoShape, kNoExperts, kNotFp8 };
struct FieldNotUsed {
  const FieldSpec* field;
  NotUsedWhy why;
};

// Fields set away from their defaults that this scenario does not read, in table order within each reason (kKind
// first). Evaluate reports them as warnings: never ignored. A field reported leaves the evaluation as it was,
// whatever its value (tests/core/test_fields_not_used.cpp holds it on generated scenarios). layouts_ranked: the
// evaluation searched the layouts that fit (the job does not fit its GPUs' memory), and the step-time model ranks
// them, so its inputs are read. routed_experts: a serving scenario's model has routed experts (the serving model
// says: InferenceModel::expert_params > 0; the caller asks it, this layer does not know the model).
std::vector<FieldNotUsed> FieldsNotUsed(const Scenario& s, bool layouts_ranked = false, bool routed_experts = true);

}  // namespace gpucost
