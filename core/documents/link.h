// link.h — share links: the whole scenario (and the pinned comparison) in the URL fragment.
//
//   <base>#s=2.<n>.<payload> payload = base64url (no padding) of the compact binary form (link_binary.h: a
//                            version byte, each scenario as its differences from the defaults or from an
//                            earlier scenario of the link, a CRC-32), n = its length in characters (a cut link
//                            says "incomplete link: N of M characters"; a changed character fails the checksum)
//   version 1, still read:   #s=1.<n>.<base64url of compact JSON> and the older #s=1.<same>
//                            {"s": {only the fields that differ from defaults}, "p": [pinned scenarios...]}
// Decoded through the same parser as scenario files, so a link is validated exactly like a file. The page and
// `gpucost link` use these functions. Sizes (test_link): 4 pinned presets <= 1,000 characters, 8 <= 1,800.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "scenario/json_io.h"
#include "scenario/scenario.h"

namespace gpucost {

constexpr const char* kLinkVersion = "2";  // written; "1" is still read
constexpr std::size_t kMaxPinned = 8;
constexpr std::size_t kMaxLinkBytes = 64 * 1024;

struct LinkPayload {
  Scenario scenario;
  std::vector<Scenario> pinned;  // comparison columns, at most kMaxPinned
  int version = 2;               // set by DecodeLink: the form the link was in (1: the older, longer JSON form)
};

// "#s=2.<n>.<data>" appended to base (base may be "" for the fragment alone).
std::string EncodeLink(const LinkPayload& payload, std::string_view base = "");

// Accepts a full URL, a fragment ("#s=..."), "s=..." or the bare "1.xxxx". On failure returns false and
// fills *errors (path "link" for format problems; scenario paths prefixed "s." or "p[i]." otherwise).
bool DecodeLink(std::string_view link, LinkPayload* out, std::vector<InputError>* errors);

// The first error of a failed DecodeLink as one line, without a doubled "link: link:" (and how many more).
std::string LinkErrorText(const std::vector<InputError>& errors);  // English
Message LinkErrorMessage(const std::vector<InputError>& errors);    // the same as a key and parameters

std::string Base64UrlEncode(std::string_view bytes);
bool Base64UrlDecode(std::string_view text, std::string* bytes);

}  // namespace gpucost
