// evaluate.h — the closed-form model: Scenario in, Result out. Pure, allocation-free, never throws.
#pragma once
#include <string>

#include "base/message.h"
#include "job/result.h"
#include "scenario/scenario.h"

namespace gpucost {

// Evaluates a scenario. If it is invalid (ValidateScenario non-empty) returns Result with ok = false.
// Validation is the caller's job for speed: Evaluate() only checks what it needs to stay finite.
Result Evaluate(const Scenario& s);

// What failures, preemptions and recovery add to the normal run (nothing fails), in time and money, and as shares
// of the normal run (issue 25: computed here, once; the results panel, the text mirror and the result document
// show it).
struct FailuresAdd {
  double hours = 0, usd = 0;
  double hours_fraction = 0, usd_fraction = 0;  // of the normal run (0 when it is 0)
};
FailuresAdd FailuresAddOf(const Result& r);

// Valid inputs can still combine beyond what doubles hold (e.g. a tiny cluster.mfu with a huge job and a short
// MTBF: exp() overflows in the failure model). Callers check the result: the JSON path of the first result
// figure that is not finite ("" when all are), and the one-line message the CLI and the page show for it.
std::string NonFiniteResultPath(const Result& r);
Message OutOfRangeMessage(const std::string& result_path);

// A job that cannot run as described: every surface shows this at the top, in place of a price.
struct BlockingState {
  bool blocked = false;
  const char* code = "";   // "memory_does_not_fit" | "never_finishes" | "no_valid_layout" | "price_by_quote" |
                           // "serving_does_not_fit" | "serving_over_capacity" (inference_blocking.h) |
                           // "bad_checkpoints_never_recover" | "absurd_input" | "model_not_offered" (issue 45)
  std::string reason;      // one line: what is wrong (English: the documents' text)
  std::string fix;         // one line: what to change ("" when nothing specific is known)
  Message reason_message;  // the same as keys and parameters (message.h): shown in the page's or CLI's language
  Message fix_message;
  void Block(const char* blocking_code, Message why, Message what_to_do);  // sets all of the above
};
BlockingState FindBlockingState(const Scenario& s, const Result& r);

// Issue 45: inputs that make a job absurd. A job (training or tasks) whose expected time passes kAbsurdYears, or
// whose expected time or GPU-hours pass kAbsurdTimesNormal times its compute alone, is blocked naming the field
// behind the largest part ("absurd_input"): every value in a field's range is allowed alone, but no real job is
// priced like this (staging at 1e-9 GB/s, an allocation efficiency of 1e-9).
constexpr double kAbsurdYears = 100;
constexpr double kAbsurdTimesNormal = 1000;
// The field behind a time or GPU-hour part, as the absurd-input block names it ("cluster.allocation_efficiency").
const char* FieldBehindPart(const Scenario& s, int part);

}  // namespace gpucost
