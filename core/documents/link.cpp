#include "job/validate.h"
#include "documents/link.h"

#include "scenario/link_binary.h"

#include <nlohmann/json.hpp>

namespace gpucost {
namespace {

using nlohmann::json;

const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int Sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}

json CompactScenario(const Scenario& s) {
  json doc = json::parse(ScenarioToJson(s, true, -1));
  doc.erase("schema");
  return doc;
}

}  // namespace

std::string Base64UrlEncode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < bytes.size()) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    if (i + 1 < bytes.size()) out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

bool Base64UrlDecode(std::string_view text, std::string* bytes) {
  bytes->clear();
  if (text.size() % 4 == 1) return false;
  unsigned acc = 0;
  int bits = 0;
  for (char c : text) {
    const int v = Sextet(c);
    if (v < 0) return false;
    acc = (acc << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes->push_back(static_cast<char>((acc >> bits) & 0xff));
    }
  }
  return (acc & ((1u << bits) - 1)) == 0;  // no stray bits
}

namespace {
std::string EncodeLinkJson(const LinkPayload& payload) {
  json doc;
  doc["s"] = CompactScenario(payload.scenario);
  if (!payload.pinned.empty()) {
    json pinned = json::array();
    for (const Scenario& p : payload.pinned) pinned.push_back(CompactScenario(p));
    doc["p"] = pinned;
  }
  const std::string data = Base64UrlEncode(doc.dump());
  return "1." + std::to_string(data.size()) + "." + data;
}
}  // namespace

std::string EncodeLink(const LinkPayload& payload, std::string_view base) {
  std::string out(base);
  const std::size_t hash = out.find('#');
  if (hash != std::string::npos) out.resize(hash);
  std::vector<const Scenario*> all{&payload.scenario};
  for (const Scenario& p : payload.pinned) all.push_back(&p);
  std::string bytes;
  if (!EncodeLinkBinary(all, &bytes)) return out + "#s=" + EncodeLinkJson(payload);  // a field the table lacks
  const std::string data = Base64UrlEncode(bytes);
  return out + "#s=" + kLinkVersion + "." + std::to_string(data.size()) + "." + data;
}

Message LinkErrorMessage(const std::vector<InputError>& errors) {
  if (errors.empty()) return {"msg.link_not", {}};
  const InputError& e = errors.front();
  // never "link: link: ..."
  MessageParam first = e.path == "link" && !e.coded.empty() ? MessageParam::From(e.coded)
                       : e.path == "link"                   ? MessageParam(e.message)
                                                            : InputErrorParam(e);
  if (errors.size() == 1) return {"fmt.as_is", {std::move(first)}};
  return {"msg.link_and_more", {std::move(first), std::to_string(errors.size() - 1)}};
}

std::string LinkErrorText(const std::vector<InputError>& errors) { return LinkErrorMessage(errors).Text(Lang::kEn); }

bool DecodeLink(std::string_view link, LinkPayload* out, std::vector<InputError>* errors) {
  auto fail = [&](Message why) {
    errors->push_back(CodedError("link", std::move(why)));
    return false;
  };
  if (link.size() > kMaxLinkBytes) return fail({"msg.link_too_long", {}});
  // Trim whitespace a copy-paste may add.
  while (!link.empty() && (link.front() == ' ' || link.front() == '\n' || link.front() == '\t' || link.front() == '\r'))
    link.remove_prefix(1);
  while (!link.empty() && (link.back() == ' ' || link.back() == '\n' || link.back() == '\t' || link.back() == '\r'))
    link.remove_suffix(1);
  // A full URL: only its fragment is the link (a page served at ".../docs=1/?s=x" still opens its own links).
  if (const std::size_t hash = link.find('#'); hash != std::string_view::npos) link.remove_prefix(hash + 1);
  const std::size_t key = link.find("s=");
  std::string_view value = link;
  if (key != std::string_view::npos && (key == 0 || link[key - 1] == '#' || link[key - 1] == '&'))
    value = link.substr(key + 2);
  const std::size_t amp = value.find('&');
  if (amp != std::string_view::npos) value = value.substr(0, amp);
  const std::size_t dot = value.find('.');
  if (dot == std::string_view::npos) return fail({"msg.link_expected", {}});
  const std::string_view version = value.substr(0, dot);
  if (version != "1" && version != "2")
    return fail({"msg.link_version", {std::string(value.substr(0, std::min<std::size_t>(dot, 8))), kLinkVersion}});
  out->version = version == "2" ? 2 : 1;
  std::string_view data = value.substr(dot + 1);
  // "1.<length>.<data>": the length of the data, so that a cut link says so. Links made before the length
  // was added ("1.<data>") still open: base64url has no '.', so a second '.' can only be this.
  if (const std::size_t dot2 = data.find('.'); dot2 != std::string_view::npos) {
    const std::string_view digits = data.substr(0, dot2);
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string_view::npos)
      return fail({"msg.link_bad_length", {}});
    const std::size_t expected = static_cast<std::size_t>(std::stoul(std::string(digits)));
    data = data.substr(dot2 + 1);
    if (data.size() < expected)
      return fail({"msg.link_incomplete", {std::to_string(data.size()), std::to_string(expected)}});
    if (data.size() > expected) return fail({"msg.link_too_many", {std::to_string(data.size() - expected)}});
  }
  std::string text;
  if (!Base64UrlDecode(data, &text)) return fail({"msg.link_base64", {}});
  bool ok = true;
  auto parse = [&](const std::string& scenario, const std::string& prefix, Scenario* dst) {
    ScenarioParse p = ParseScenarioJson(scenario);
    *dst = p.scenario;
    for (InputError e : p.errors) {
      e.path = prefix + e.path;
      errors->push_back(std::move(e));
    }
    ok = ok && p.ok();
  };
  if (out->version == 2) {
    std::vector<std::string> docs;
    const Message problem = DecodeLinkBinary(text, &docs);
    if (!problem.empty()) return fail(problem);
    if (docs.size() > kMaxPinned + 1) return fail({"msg.link_too_many_pinned", {}});
    parse(docs[0], "s.", &out->scenario);
    out->pinned.clear();
    for (std::size_t i = 1; i < docs.size(); ++i) {
      out->pinned.emplace_back();
      parse(docs[i], "p[" + std::to_string(i - 1) + "].", &out->pinned.back());
    }
    return ok;
  }
  const std::string depth = CheckJsonDepth(text);
  if (!depth.empty()) return fail({"msg.link_corrupted", {MessageParam::Key("msg.too_deep", {std::to_string(kMaxJsonDepth)})}});
  if (const std::string dup = DuplicateKeyPath(text); !dup.empty()) {  // issue 31: the path inside the link
    errors->push_back(CodedError(dup, {"msg.duplicate_key", {}}));
    return false;
  }
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("s") || !doc["s"].is_object())
    return fail({"msg.link_not_scenario", {}});
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != "s" && it.key() != "p") return fail({"msg.link_unknown_key", {it.key()}});
  parse(doc["s"].dump(), "s.", &out->scenario);
  out->pinned.clear();
  if (doc.contains("p")) {
    const json& pinned = doc["p"];
    if (!pinned.is_array()) return fail({"msg.link_pinned_list", {}});
    if (pinned.size() > kMaxPinned) return fail({"msg.link_too_many_pinned", {}});
    for (std::size_t i = 0; i < pinned.size(); ++i) {
      if (!pinned[i].is_object()) return fail({"msg.link_pinned_object", {}});
      out->pinned.emplace_back();
      parse(pinned[i].dump(), "p[" + std::to_string(i) + "].", &out->pinned.back());
    }
  }
  return ok;
}

}  // namespace gpucost
