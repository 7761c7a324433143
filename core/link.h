// link.h — share links: the whole scenario (and the pinned comparison) in the URL fragment.
//
//   <base>#s=1.<n>.<payload> payload = base64url (no padding) of compact JSON, n = its length in characters
//                            (a cut link says "incomplete link: N of M characters"); "1.<payload>", the
//                            form before the length was added, still opens
//                            {"s": {only the fields that differ from defaults}, "p": [pinned scenarios...]}
// Versioned ("1."), compact (defaults omitted) and decoded through the same parser as scenario files, so a
// link is validated exactly like a file. The page and `gpucost link` use these functions.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "json_io.h"
#include "scenario.h"

namespace gpucost {

constexpr const char* kLinkVersion = "1";
constexpr std::size_t kMaxPinned = 8;
constexpr std::size_t kMaxLinkBytes = 64 * 1024;

struct LinkPayload {
  Scenario scenario;
  std::vector<Scenario> pinned;  // comparison columns, at most kMaxPinned
};

// "#s=1.xxxx" appended to base (base may be "" for the fragment alone).
std::string EncodeLink(const LinkPayload& payload, std::string_view base = "");

// Accepts a full URL, a fragment ("#s=..."), "s=..." or the bare "1.xxxx". On failure returns false and
// fills *errors (path "link" for format problems; scenario paths prefixed "s." or "p[i]." otherwise).
bool DecodeLink(std::string_view link, LinkPayload* out, std::vector<InputError>* errors);

// The first error of a failed DecodeLink as one line, without a doubled "link: link:" (and how many more).
std::string LinkErrorText(const std::vector<InputError>& errors);

std::string Base64UrlEncode(std::string_view bytes);
bool Base64UrlDecode(std::string_view text, std::string* bytes);

}  // namespace gpucost
