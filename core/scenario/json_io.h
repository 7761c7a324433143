// json_io.h — scenario JSON in and out (schema gpucost/scenario@1), with errors that name the JSON path
// and the allowed range. The core never throws out of these functions and never aborts on bad input.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/message.h"
#include "scenario/scenario.h"

namespace gpucost {

constexpr const char* kScenarioSchema = "gpucost/scenario@1";
constexpr int kMaxJsonDepth = 32;            // deeper input is rejected before parsing
constexpr std::size_t kMaxJsonBytes = 1 << 20;  // 1 MiB

struct InputError {
  InputError() = default;
  InputError(std::string at, std::string text) : path(std::move(at)), message(std::move(text)) {}
  std::string path;     // JSON path, e.g. "cluster.gpus" ("" for the document as a whole)
  std::string message;  // what is wrong and what is allowed, in English (the documents' text)
  Message coded;        // the same as a key and parameters (message.h); empty only in the embedded offers file's
                        // own checks (developers' messages, in English)
  std::string Text() const { return path.empty() ? message : path + ": " + message; }
  std::string Text(Lang lang) const;  // in a language, for the page and the CLI
  std::string Body(Lang lang) const;  // the same without the path
};
// An error whose text is a key and parameters.
InputError CodedError(std::string path, Message text);
// A check's error added out of line, its parameters made text only when it fails: the checks a valid scenario
// passes then carry no message-building code (the page's first frame runs them all: docs/bundle-size.md).
void AddError(std::vector<InputError>* errors, const char* path, const char* key);
void AddError(std::vector<InputError>* errors, const char* path, const char* key, long long n);
void AddError(std::vector<InputError>* errors, const char* path, const char* key, const char* text, long long n1, long long n2);
// An error as another message's parameter: its key and parameters when coded, else its English text.
MessageParam InputErrorParam(const InputError& e);
// A JSON value's type as a message parameter ("a string", "a number", ... in the reader's language).
MessageParam JsonTypeParam(const nlohmann::json& v);
// An error as JSON: {"path", "message"} (English), and "key" and "params" where its text is coded.
nlohmann::json InputErrorJson(const InputError& e);

struct ScenarioParse {
  Scenario scenario;                // every valid field applied over `base`, invalid ones left at base
  std::vector<InputError> errors;   // parse, type, range and consistency errors, in document order
  bool ok() const { return errors.empty(); }
};

// Reads a scenario document over `base`: the size, depth and duplicate-key checks, every field through the field
// table (type and range; valid fields are applied even when others are not, so nothing the user entered is lost
// because of an error elsewhere), scaling.points, the load profile and workload.model (models.h). What the other
// layers know (an offer, the shape's parameter count, each domain's checks) is applied above it:
// ParseScenarioJson (job/validate.h) is the whole reading. `doc` receives the parsed document (for the fields it
// gives itself) and `model_given` whether workload.model filled the shape.
ScenarioParse ReadScenarioJson(std::string_view text, const Scenario& base, nlohmann::json* doc, bool* model_given);

// The scenario layer's own checks, gathered by ValidateScenario (job/validate.h) in its order: every field in
// its range (a scenario built in code or the UI did not pass through the reader); workload.model known;
// checkpointing off without an interval or async writes; a training layout's parallel degrees divide the GPUs and
// the heads divide (independent tasks: a task fits the cluster).
void ValidateFieldRanges(const Scenario& s, std::vector<InputError>* errors);
void ValidateModelName(const Scenario& s, std::vector<InputError>* errors);
void ValidateCheckpointing(const Scenario& s, std::vector<InputError>* errors);
void ValidateLayoutDivides(const Scenario& s, std::vector<InputError>* errors);
// A user's text cut to a length fit for a message (an unknown id echoed back).
std::string ShortenForMessage(std::string text);

// Serialises a scenario. only_non_default: omit fields at their default (compact; used by share links).
std::string ScenarioToJson(const Scenario& s, bool only_non_default = true, int indent = 2);

// Returns "" when `text` nests no deeper than max_depth, else an error message (cheap pre-scan).
std::string CheckJsonDepth(std::string_view text, int max_depth = kMaxJsonDepth);
// "" or the path of the first object key given twice in the same object ("pricing.usd_per_gpu_hour",
// "gemm[2].tflops"). JSON (RFC 8259, 4) leaves duplicate names undefined and nlohmann keeps the last one, so a
// second "usd_per_gpu_hour" would silently win over the first: every document a user gives (scenarios, links,
// probe reports, fleets, offers) is refused instead (issue 31). Malformed JSON returns "" (the parser says why).
std::string DuplicateKeyPath(std::string_view text);

}  // namespace gpucost
