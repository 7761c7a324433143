// message.h — a user-visible message as data (issue 27): a key of the string tables (assets/i18n/<lang>.json) and
// its parameters, rendered in a language only at the edge (the CLI's table, the page). Documents carry the key
// and the parameters (and the English text), so they are the same bytes in every language.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/i18n.h"

namespace gpucost {

// One parameter of a message: a value as written in every language (a number already formatted, a GPU's name,
// a field path), or another message's key (a pool's name, why a layout is invalid), rendered in the language.
struct MessageParam {
  std::string text;                // the value, or the key
  bool is_key = false;
  std::vector<MessageParam> args;  // a key's own parameters ({0}, {1}, ... of its text)
  // Out of line: a message is made at some fifty places, and each inlined construction and destruction of the
  // strings and the vector weighed on the page's first load (docs/bundle-size.md).
  MessageParam(std::string value);  // NOLINT: values convert implicitly
  MessageParam(const char* value);  // NOLINT
  MessageParam(const MessageParam&);
  MessageParam(MessageParam&&) noexcept;
  MessageParam& operator=(const MessageParam&);
  MessageParam& operator=(MessageParam&&) noexcept;
  ~MessageParam();
  static MessageParam Key(const char* key, std::vector<MessageParam> key_args = {});
  static MessageParam From(const struct Message& m);  // a whole message as a parameter (its key and parameters)
};

// A value formatted with printf's `fmt` (one conversion of a double, e.g. "%.0f", "%.3g"), for a parameter.
std::string FormatParam(const char* fmt, double value);

// Warnings and notes as data (issue 27, message.h): each has a code (what it is about, stable: "never_finishes"),
// its text's key in the string tables ("msg.w_never_finishes") and the parameters that fill it; rendered in a
// language only where it is shown (Text). The result's JSON carries code, key, params and the English message.
constexpr int kMaxWarnings = 12;
struct Warnings {
  int count = 0;
  const char* code[kMaxWarnings] = {};
  const char* key[kMaxWarnings] = {};
  char param_text[kMaxWarnings][240] = {};  // packed parameters (message.cpp)
  void Add(const char* warning_code, const char* text_key, std::initializer_list<MessageParam> params = {});
  void AddFrom(const Warnings& other, int i);  // another list's warning i, as it is
  int Find(const char* warning_code) const;     // the first warning with that code, -1 if none
  std::vector<MessageParam> Params(int i) const;
  std::string Text(int i, Lang lang) const;
};


// The key's text in `lang` with {0}, {1}, ... filled from params (keys among them rendered in `lang` too).
std::string RenderMessage(Lang lang, const std::string& key, const std::vector<MessageParam>& params);
// One parameter in `lang`: a value as it is, a key rendered.
std::string RenderParam(Lang lang, const MessageParam& p);

// The JSON of a message's parameters: an array, each a string, or {"key": ..., "params": [...]} for a parameter
// that is a key.
nlohmann::json MessageParamsJson(const std::vector<MessageParam>& params);

// One warning (or note) of a list as JSON: {"code", "key", "params", "message" (English)}: the same in every language.
nlohmann::json WarningJson(const Warnings& w, int i);

// A whole message: its key and parameters.
struct Message {
  std::string key;
  std::vector<MessageParam> params;
  bool empty() const { return key.empty(); }
  std::string Text(Lang lang) const { return key.empty() ? std::string() : RenderMessage(lang, key, params); }
};

}  // namespace gpucost
