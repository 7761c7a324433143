#include "scenario/json_io.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

#include "scenario/fields.h"
#include "scenario/models.h"

namespace gpucost {
namespace {

using nlohmann::json;

std::string TypeName(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::binary: return "binary";
    case json::value_t::discarded: return "invalid";
    default: return "a number";
  }
}

// A JSON value's type for a message: a key ("a string" reads in the page's language), or JSON's own word.
MessageParam TypeParam(const json& v) {
  switch (v.type()) {
    case json::value_t::object: return MessageParam::Key("msg.type_object");
    case json::value_t::array: return MessageParam::Key("msg.type_array");
    case json::value_t::string: return MessageParam::Key("msg.type_string");
    case json::value_t::boolean: return MessageParam::Key("msg.type_boolean");
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return MessageParam::Key("msg.type_number");
    default: return MessageParam(TypeName(v));  // null, binary, invalid
  }
}

std::string Shorten(std::string s) {
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

// Applies one JSON value to field f. Returns an empty message or what is wrong (message.h).
Message ApplyValue(const FieldSpec& f, const json& v, Scenario* s) {
  const MessageParam range = RangeMessage(f, true);
  switch (f.kind) {
    case FieldKind::kText: {
      if (!v.is_string()) return {"msg.expected_string", {TypeParam(v)}};
      const std::string& text = v.get_ref<const std::string&>();
      const long chars = Utf8Length(text);
      if (chars < 0) return {"msg.utf8", {}};
      if (chars > static_cast<long>(TextMaxChars(f)) || text.size() >= TextCapacity(f))
        return {"msg.must_be", {range, std::to_string(chars)}};
      if (text.find('\0') != std::string::npos) return {"msg.no_nul", {}};
      char* dst = static_cast<char*>(f.ref(*s));
      std::memcpy(dst, text.c_str(), text.size() + 1);
      return {};
    }
    case FieldKind::kBool:
      if (!v.is_boolean()) return {"msg.expected_bool", {TypeParam(v)}};
      SetNumber(*s, f, v.get<bool>() ? 1.0 : 0.0);
      return {};
    case FieldKind::kEnum: {
      if (!v.is_string()) return {"msg.expected_choice", {range, TypeParam(v)}};
      const std::string& name = v.get_ref<const std::string&>();
      for (int i = 0; f.choices[i]; ++i)
        if (name == f.choices[i]) {
          SetNumber(*s, f, i);
          return {};
        }
      return {"msg.unknown_value", {Shorten(name), range}};
    }
    case FieldKind::kNumber:
    case FieldKind::kInteger: {
      if (!v.is_number()) return {"msg.expected_number", {TypeParam(v), range}};
      const double x = v.get<double>();
      char got[64];
      std::snprintf(got, sizeof got, "%.17g", x);
      if (!std::isfinite(x)) return {"msg.number_range", {range}};
      if (!ValueInRange(f, x)) return {"msg.must_be", {range, std::string(got)}};
      SetNumber(*s, f, x);
      return {};
    }
  }
  return {"msg.unsupported_field", {}};
}

// "scaling": {"points": [{"gpus": 8, "tokens_per_second": 1.2e5}, ...]} (not in the field table: an array).
// The points are applied only when every one is valid.
void ParseScaling(const json& v, Scenario* s, std::vector<InputError>* errors) {
  if (!v.is_object()) return errors->push_back(CodedError("scaling", {"msg.expected_object", {TypeParam(v)}}));
  ScalingInputs in{};
  bool valid = true;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it.key() != "points") {
      errors->push_back(CodedError("scaling." + it.key(), {"msg.unknown_key_allowed", {"points"}}));
      continue;
    }
    if (!it->is_array()) return errors->push_back(CodedError("scaling.points", {"msg.expected_array", {TypeParam(*it)}}));
    if (it->size() > static_cast<std::size_t>(kMaxScalingPoints))
      return errors->push_back(CodedError("scaling.points", {"fmt.got_count", {MessageParam::Key("msg.at_most_points", {std::to_string(kMaxScalingPoints)}),
                                                                                std::to_string(it->size())}}));
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& point = (*it)[i];
      const std::string at = "scaling.points[" + std::to_string(i) + "]";
      if (!point.is_object()) {
        errors->push_back({at, "expected an object {\"gpus\": ..., \"tokens_per_second\": ...}, got " + TypeName(point)});
        valid = false;
        continue;
      }
      for (auto k = point.begin(); k != point.end(); ++k)
        if (k.key() != "gpus" && k.key() != "tokens_per_second")
          errors->push_back({at + "." + k.key(), "unknown key; allowed: gpus, tokens_per_second"}), valid = false;
      const json* gpus = point.contains("gpus") ? &point["gpus"] : nullptr;
      const json* tps = point.contains("tokens_per_second") ? &point["tokens_per_second"] : nullptr;
      const double g = gpus && gpus->is_number() ? gpus->get<double>() : -1;
      const double x = tps && tps->is_number() ? tps->get<double>() : -1;
      if (!(g >= 1 && g <= 10000000 && g == std::floor(g)))
        errors->push_back({at + ".gpus", gpus ? "must be an integer from 1 to 10,000,000" : "missing; an integer from 1 to 10,000,000"}), valid = false;
      if (!(x > 0 && x <= 1e15))
        errors->push_back({at + ".tokens_per_second", tps ? "must be > 0 and <= 1e15 (measured tokens/s of the whole job)"
                                                         : "missing; measured tokens/s of the whole job, > 0"}), valid = false;
      in.points[i] = {static_cast<std::int64_t>(g), x};
    }
    in.point_count = static_cast<int>(it->size());
  }
  if (valid) s->scaling = in;
}

json ScalingJson(const ScalingInputs& in) {
  json points = json::array();
  for (int i = 0; i < in.point_count; ++i)
    points.push_back({{"gpus", in.points[i].gpus}, {"tokens_per_second", in.points[i].tokens_per_second}});
  return {{"points", points}};
}

// Issue 28: "inference.load_profile" is a preset name (inference_day.h) or 24 hourly multipliers of
// inference.requests_per_second; applied only when valid.
void ParseLoadProfile(const json& v, Scenario* s, std::vector<InputError>* errors) {
  const char* path = "inference.load_profile";
  InferenceLoadProfileInputs in{};
  if (v.is_string()) {
    const std::string name = v.get<std::string>();
    for (int i = 1; kLoadProfileNames[i]; ++i)
      if (name == kLoadProfileNames[i] && i != static_cast<int>(LoadProfile::kCustom)) in.profile = i;
    if (in.profile == 0)
      return errors->push_back({path, "unknown profile \"" + Shorten(name) + "\"; one of: flat, business-day, "
                                      "consumer-evening, or an array of 24 hourly multipliers"});
  } else if (v.is_array()) {
    if (v.size() != static_cast<std::size_t>(kLoadProfileHours))
      return errors->push_back({path, "expected 24 hourly multipliers (hour 0 to 23), got " + std::to_string(v.size())});
    double sum = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const double x = v[i].is_number() ? v[i].get<double>() : -1;
      if (!(x >= 0 && x <= 1000))
        return errors->push_back({std::string(path) + "[" + std::to_string(i) + "]", "must be a number from 0 to 1000"});
      in.multipliers[i] = x;
      sum += x;
    }
    if (sum <= 0) return errors->push_back({path, "at least one hour must have load (a multiplier > 0)"});
    in.profile = static_cast<int>(LoadProfile::kCustom);
  } else {
    return errors->push_back({path, "expected a profile name or an array of 24 numbers, got " + TypeName(v)});
  }
  s->inference.load_profile = in;
}

void ParseObject(const json& obj, const std::string& prefix, Scenario* s, std::vector<InputError>* errors) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (prefix.empty() && it.key() == "schema") {
      if (!it->is_string() || it->get_ref<const std::string&>() != kScenarioSchema)
        errors->push_back(CodedError("schema", {"msg.schema", {kScenarioSchema}}));
      continue;
    }
    if (prefix.empty() && it.key() == "scaling") {
      ParseScaling(*it, s, errors);
      continue;
    }
    if (path == "inference.load_profile") {
      ParseLoadProfile(*it, s, errors);
      continue;
    }
    if (path == "inference.autoscale" && it->is_object()) s->inference.autoscale_given = true;  // even when {}
    if (const FieldSpec* f = FindField(path.c_str())) {
      Message problem = ApplyValue(*f, *it, s);
      if (!problem.empty()) errors->push_back(CodedError(path, std::move(problem)));
      continue;
    }
    // A section (an object holding fields)?
    bool is_section = false;
    const std::string dotted = path + ".";
    for (std::size_t i = 0; i < FieldCount(); ++i)
      if (std::strncmp(Fields()[i].path, dotted.c_str(), dotted.size()) == 0) {
        is_section = true;
        break;
      }
    if (!is_section) {
      errors->push_back(CodedError(path, {"msg.unknown_key", {}}));
      continue;
    }
    if (!it->is_object()) {
      errors->push_back(CodedError(path, {"msg.expected_object", {TypeParam(*it)}}));
      continue;
    }
    ParseObject(*it, path, s, errors);
  }
}

// Issue 18: "workload.model" fills the shape fields the document does not give itself (models.h). Returns true
// when a known model was applied; an unknown id is an error listing the known ones.
bool ApplyNamedModel(const json& doc, Scenario* s, std::vector<InputError>* errors) {
  const json* w = doc.contains("workload") && doc["workload"].is_object() ? &doc["workload"] : nullptr;
  if (!w || !w->contains("model") || !(*w)["model"].is_string() || s->arch.model[0] == '\0') return false;
  const ModelSpec* m = FindModel(s->arch.model);
  if (!m) {
    errors->push_back(CodedError("workload.model", {"msg.unknown_model", {Shorten(s->arch.model), ModelIds()}}));
    return false;
  }
  ApplyModel(*m, s, [w](const char* path) { return w->contains(path + std::strlen("workload.")); });
  return true;
}


}  // namespace

MessageParam JsonTypeParam(const json& v) { return TypeParam(v); }

std::string CheckJsonDepth(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '{' || c == '[') {
      if (++depth > max_depth) return "JSON nested deeper than " + std::to_string(max_depth) + " levels";
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return "";
}

namespace {

// SAX pass for DuplicateKeyPath: one frame per open object or array, with the keys seen (objects) or the index of
// the current element (arrays).
struct DuplicateKeySax : nlohmann::json_sax<json> {
  struct Frame {
    bool object = false;
    std::vector<std::string> keys;  // small objects: a linear search is cheaper than a set
    std::int64_t index = -1;
  };
  std::vector<Frame> frames;
  std::string found;

  std::string Path(const std::string& last) const {
    std::string path;
    for (std::size_t i = 0; i + 1 < frames.size(); ++i) {
      const Frame& f = frames[i];
      if (f.object) path += (path.empty() ? "" : ".") + f.keys.back();
      else path += "[" + std::to_string(f.index) + "]";
    }
    return path + (path.empty() ? "" : ".") + last;
  }
  bool Element() {
    if (!frames.empty() && !frames.back().object) ++frames.back().index;
    return true;
  }
  bool null() override { return Element(); }
  bool boolean(bool) override { return Element(); }
  bool number_integer(number_integer_t) override { return Element(); }
  bool number_unsigned(number_unsigned_t) override { return Element(); }
  bool number_float(number_float_t, const string_t&) override { return Element(); }
  bool string(string_t&) override { return Element(); }
  bool binary(binary_t&) override { return Element(); }
  bool start_object(std::size_t) override {
    Element();
    frames.push_back({true, {}, -1});
    return true;
  }
  bool end_object() override {
    frames.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    Element();
    frames.push_back({false, {}, -1});
    return true;
  }
  bool end_array() override {
    frames.pop_back();
    return true;
  }
  bool key(string_t& k) override {
    Frame& f = frames.back();
    for (const std::string& seen : f.keys)
      if (seen == k) {
        found = Path(k);
        return false;  // stop: one duplicate is enough to refuse
      }
    f.keys.push_back(k);
    // Path() names an enclosing object by its last key: keep the current key last.
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

}  // namespace

std::string DuplicateKeyPath(std::string_view text) {
  DuplicateKeySax sax;
  json::sax_parse(text.begin(), text.end(), &sax, json::input_format_t::json, false);
  return sax.found;
}


ScenarioParse ReadScenarioJson(std::string_view text, const Scenario& base, json* doc_out, bool* model_given) {
  *model_given = false;
  ScenarioParse out;
  out.scenario = base;
  if (text.size() > kMaxJsonBytes) {
    out.errors.push_back(CodedError("", {"msg.input_too_large", {}}));
    return out;
  }
  std::string depth_problem = CheckJsonDepth(text);
  if (!depth_problem.empty()) {
    out.errors.push_back(CodedError("", {"msg.too_deep", {std::to_string(kMaxJsonDepth)}}));
    return out;
  }
  if (const std::string dup = DuplicateKeyPath(text); !dup.empty()) {  // issue 31: never the last one silently
    out.errors.push_back(CodedError(dup, {"msg.duplicate_key", {}}));
    return out;
  }
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    const std::size_t colon = what.find("parse error");
    out.errors.push_back(CodedError("", {"msg.malformed_json", {colon == std::string::npos ? what : what.substr(colon)}}));
    return out;
  } catch (const std::exception& e) {
    out.errors.push_back(CodedError("", {"msg.malformed_json", {std::string(e.what())}}));
    return out;
  }
  if (!doc.is_object()) {
    out.errors.push_back(CodedError("", {"msg.not_object", {TypeParam(doc)}}));
    return out;
  }
  ParseObject(doc, "", &out.scenario, &out.errors);
  {  // issue 28: "autoscale": {} turns autoscaling on by itself; with a field given, the field says so (canonical)
    const InferenceAutoscaleInputs& a = out.scenario.inference.autoscale;
    if (a.min_replicas > 0 || a.max_replicas > 0 || a.scale_up_minutes > 0 || a.scale_down_minutes > 0)
      out.scenario.inference.autoscale_given = false;
  }
  *model_given = ApplyNamedModel(doc, &out.scenario, &out.errors);  // issue 18 (models.h)
  *doc_out = std::move(doc);
  return out;
}

void ValidateFieldRanges(const Scenario& s, std::vector<InputError>* e) {
  // Every field in range (a scenario built in code or the UI did not pass through the parser).
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    if (f.kind == FieldKind::kText) continue;
    const double v = GetNumber(s, f);
    if (f.is_auto && v == 0) continue;
    if (!ValueInRange(f, v)) {
      char got[64];
      std::snprintf(got, sizeof got, "%.17g", v);
      e->push_back(CodedError(f.path, {"msg.must_be", {RangeMessage(f, true), std::string(got)}}));
    }
  }
}

namespace {
[[gnu::noinline]] void UnknownModelError(const Scenario& s, std::vector<InputError>* e) {  // out of line: AddError
  e->push_back(CodedError("workload.model", {"msg.unknown_model", {Shorten(s.arch.model), ModelIds()}}));
}
}  // namespace

void ValidateModelName(const Scenario& s, std::vector<InputError>* e) {
  if (s.arch.model[0] && !FindModel(s.arch.model)) UnknownModelError(s, e);  // issue 18: models by name
}

void ValidateCheckpointing(const Scenario& s, std::vector<InputError>* e) {
  if (!s.reliability.checkpointing && (s.reliability.checkpoint_interval_minutes > 0 || s.reliability.checkpoint_async))
    e->push_back(CodedError("reliability.checkpointing", {"msg.checkpointing_contradiction", {}}));
}

void ValidateLayoutDivides(const Scenario& s, std::vector<InputError>* e) {
  const WorkloadInputs& w = s.workload;
  const ParallelInputs& p = s.parallel;
  if (Kind(s) == WorkloadKind::kInference) return;
  if (Kind(s) == WorkloadKind::kIndependent) {
    if (w.gpus_per_task > s.cluster.gpus) AddError(e, "workload.gpus_per_task", "msg.le_cluster_gpus", s.cluster.gpus);
    return;
  }
  const std::int64_t model_parallel = p.tensor_parallel * p.pipeline_parallel * std::max<std::int64_t>(1, p.context_parallel);
  if (s.cluster.gpus % model_parallel != 0)
    AddError(e, "parallel.tensor_parallel", "msg.model_parallel_divide",
             p.context_parallel > 1 ? "tensor_parallel x context_parallel x pipeline_parallel" : "tensor_parallel x pipeline_parallel",
             model_parallel, s.cluster.gpus);
  else if (p.data_parallel > 0 && p.data_parallel * model_parallel != s.cluster.gpus)
    AddError(e, "parallel.data_parallel", "msg.parallel_equal",
             p.context_parallel > 1 ? "data x tensor x context x pipeline parallel" : "data x tensor x pipeline parallel",
             s.cluster.gpus, p.data_parallel * model_parallel);
  if (w.heads > 0 && w.hidden > 0 && w.hidden % w.heads != 0) AddError(e, "workload.heads", "msg.divide_hidden", w.hidden);
  if (w.kv_heads > 0 && w.heads > 0 && w.heads % w.kv_heads != 0) AddError(e, "workload.kv_heads", "msg.divide_heads", w.heads);
}

std::string ShortenForMessage(std::string text) { return Shorten(std::move(text)); }

std::string ScenarioToJson(const Scenario& s, bool only_non_default, int indent) {
  json doc = json::object();
  doc["schema"] = kScenarioSchema;
  for (std::size_t i = 0; i < FieldCount(); ++i) {
    const FieldSpec& f = Fields()[i];
    if (only_non_default && IsDefault(s, f)) continue;
    const double v = GetNumber(s, f);
    if (f.is_auto && v == 0 && f.kind != FieldKind::kText) continue;  // automatic: absent
    // Walk/create the nested objects along the dotted path.
    json* node = &doc;
    const char* begin = f.path;
    for (const char* dot = std::strchr(begin, '.'); dot; dot = std::strchr(begin, '.')) {
      node = &(*node)[std::string(begin, dot)];
      begin = dot + 1;
    }
    json& slot = (*node)[begin];
    switch (f.kind) {
      case FieldKind::kText: slot = GetText(s, f); break;
      case FieldKind::kBool: slot = v != 0; break;
      case FieldKind::kEnum: slot = f.choices[static_cast<int>(v)]; break;
      case FieldKind::kInteger: slot = static_cast<std::int64_t>(v); break;
      case FieldKind::kNumber: slot = v; break;
    }
  }
  if (s.scaling.point_count > 0) doc["scaling"] = ScalingJson(s.scaling);
  const InferenceLoadProfileInputs& lp = s.inference.load_profile;
  if (lp.profile == static_cast<int>(LoadProfile::kCustom))
    doc["inference"]["load_profile"] = std::vector<double>(lp.multipliers, lp.multipliers + kLoadProfileHours);
  else if (lp.profile > 0 && lp.profile < static_cast<int>(LoadProfile::kCustom))
    doc["inference"]["load_profile"] = kLoadProfileNames[lp.profile];
  if (s.inference.autoscale_given && !doc["inference"].contains("autoscale")) doc["inference"]["autoscale"] = json::object();
  return doc.dump(indent);
}

InputError CodedError(std::string path, Message text) {
  InputError e(std::move(path), text.Text(Lang::kEn));
  e.coded = std::move(text);
  return e;
}

[[gnu::noinline]] void AddError(std::vector<InputError>* errors, const char* path, const char* key) {
  errors->push_back(CodedError(path, {key, {}}));
}
[[gnu::noinline]] void AddError(std::vector<InputError>* errors, const char* path, const char* key, long long n) {
  errors->push_back(CodedError(path, {key, {std::to_string(n)}}));
}
[[gnu::noinline]] void AddError(std::vector<InputError>* errors, const char* path, const char* key, const char* text,
                                long long n1, long long n2) {
  errors->push_back(CodedError(path, {key, {text, std::to_string(n1), std::to_string(n2)}}));
}

MessageParam InputErrorParam(const InputError& e) {
  if (e.coded.empty()) return MessageParam(e.Text());
  MessageParam body = MessageParam::From(e.coded);
  // "path: ..." as InputError::Text() writes it (a key outside msg.*: the English matcher never sees it)
  return e.path.empty() ? body : MessageParam::Key("fmt.at_path", {e.path, std::move(body)});
}

nlohmann::json InputErrorJson(const InputError& e) {
  nlohmann::json j = {{"path", e.path}, {"message", e.message}};
  if (!e.coded.empty()) j["key"] = e.coded.key, j["params"] = MessageParamsJson(e.coded.params);
  return j;
}

std::string InputError::Body(Lang lang) const { return coded.empty() ? message : coded.Text(lang); }

std::string InputError::Text(Lang lang) const {
  const std::string body = Body(lang);
  return path.empty() ? body : path + ": " + body;
}

}  // namespace gpucost
