// message.cpp — messages as keys and parameters (message.h), and the Warnings list's storage of them (result.h).
#include "base/message.h"

#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>


namespace gpucost {

MessageParam::MessageParam(std::string value) : text(std::move(value)) {}
MessageParam::MessageParam(const char* value) : text(value) {}
MessageParam::MessageParam(const MessageParam&) = default;
MessageParam::MessageParam(MessageParam&&) noexcept = default;
MessageParam& MessageParam::operator=(const MessageParam&) = default;
MessageParam& MessageParam::operator=(MessageParam&&) noexcept = default;
MessageParam::~MessageParam() = default;

MessageParam MessageParam::Key(const char* key, std::vector<MessageParam> key_args) {
  MessageParam p(key);
  p.is_key = true;
  p.args = std::move(key_args);
  return p;
}

std::string FormatParam(const char* fmt, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, value);
  return buf;
}

MessageParam MessageParam::From(const Message& m) { return Key(m.key.c_str(), m.params); }

std::string RenderParam(Lang lang, const MessageParam& p) { return p.is_key ? RenderMessage(lang, p.text, p.args) : p.text; }

std::string RenderMessage(Lang lang, const std::string& key, const std::vector<MessageParam>& params) {
  std::vector<std::string> args(params.size());
  for (std::size_t i = 0; i < args.size(); ++i) args[i] = RenderParam(lang, params[i]);
  return FillPlaceholders(Tr(lang, key.c_str()), args.data(), args.size());
}

nlohmann::json MessageParamsJson(const std::vector<MessageParam>& params) {
  nlohmann::json out = nlohmann::json::array();
  for (const MessageParam& p : params)
    out.push_back(p.is_key ? nlohmann::json{{"key", p.text}, {"params", MessageParamsJson(p.args)}} : nlohmann::json(p.text));
  return out;
}

// Warnings keep each message's parameters in a fixed buffer (a Result stays one flat, copyable block): each
// parameter ends with kEnd; one that is a key starts with kKeyMark.
namespace {
constexpr char kEnd = '\x1f';
constexpr char kKeyMark = '\x1e';
constexpr char kArg = '\x1d';  // before each of a key's own parameters
std::string Packed(const MessageParam& p) {
  if (!p.is_key) return p.text + kEnd;
  std::string out = kKeyMark + p.text;
  for (const MessageParam& a : p.args) out += kArg + a.text;  // a warning's keys have values as parameters
  return out + kEnd;
}
MessageParam Unpacked(const std::string& s) {
  if (s.empty() || s[0] != kKeyMark) return MessageParam(s);
  std::vector<std::string> parts(1);
  for (std::size_t i = 1; i < s.size(); ++i) {
    if (s[i] == kArg) parts.emplace_back();
    else parts.back() += s[i];
  }
  return MessageParam::Key(parts[0].c_str(), std::vector<MessageParam>(parts.begin() + 1, parts.end()));
}
}  // namespace

void Warnings::Add(const char* warning_code, const char* text_key, std::initializer_list<MessageParam> params) {
  if (count >= kMaxWarnings) return;
  std::vector<MessageParam> values(params);
  auto pack = [&values] {
    std::string packed;
    for (const MessageParam& p : values) packed += Packed(p);
    return packed;
  };
  std::string packed = pack();
  // A long list (the fields a scenario sets but does not use) is shortened where an item ends, with "...".
  const std::size_t room = sizeof param_text[count] - 1;
  if (packed.size() > room) {
    MessageParam* longest = &values[0];
    for (MessageParam& p : values) if (p.text.size() > longest->text.size()) longest = &p;
    const std::size_t over = packed.size() - room + 5;
    std::size_t cut = longest->text.size() > over ? longest->text.size() - over : 0;
    const std::size_t item = longest->text.rfind(", ", cut);
    if (item != std::string::npos) cut = item;
    while (cut > 0 && (static_cast<unsigned char>(longest->text[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    longest->text = longest->text.substr(0, cut) + ", ...";
    packed = pack();
    if (packed.size() > room) return;
  }
  code[count] = warning_code;
  key[count] = text_key;
  std::memcpy(param_text[count], packed.c_str(), packed.size() + 1);
  ++count;
}

int Warnings::Find(const char* warning_code) const {
  for (int i = 0; i < count; ++i)
    if (std::strcmp(code[i], warning_code) == 0) return i;
  return -1;
}

void Warnings::AddFrom(const Warnings& other, int i) {
  if (count >= kMaxWarnings || i < 0 || i >= other.count) return;
  code[count] = other.code[i];
  key[count] = other.key[i];
  std::memcpy(param_text[count], other.param_text[i], sizeof param_text[count]);
  ++count;
}

std::vector<MessageParam> Warnings::Params(int i) const {
  std::vector<MessageParam> out;
  std::string cur;
  for (const char* p = param_text[i]; *p; ++p) {
    if (*p != kEnd) {
      cur += *p;
      continue;
    }
    out.push_back(Unpacked(cur));
    cur.clear();
  }
  return out;
}

std::string Warnings::Text(int i, Lang lang) const { return RenderMessage(lang, key[i], Params(i)); }

nlohmann::json WarningJson(const Warnings& w, int i) {
  return {{"code", w.code[i]}, {"key", w.key[i]}, {"params", MessageParamsJson(w.Params(i))}, {"message", w.Text(i, Lang::kEn)}};
}

}  // namespace gpucost
