// fuzz_link — any bytes as a share link (as `gpucost link --decode LINK` and the page's URL fragment read it).
// Properties: no crash, hang, leak or undefined behaviour; a rejected link has errors with messages; an
// accepted link re-encodes to a link that decodes to the same scenarios; base64url decode/encode is exact.
#include <cstdint>
#include <string>

#include "fuzz_util.h"
#include "documents/link.h"

using namespace gpucost;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string bytes;
  if (Base64UrlDecode(text, &bytes) && Base64UrlEncode(bytes) != text) fuzz::Violated("base64url is not exact");

  LinkPayload first;
  std::vector<InputError> errors;
  if (!DecodeLink(text, &first, &errors)) {
    fuzz::CheckErrors(errors);
    return 0;
  }
  const std::string link = EncodeLink(first, "https://example.org/gpucost/");
  LinkPayload second;
  errors.clear();
  if (!DecodeLink(link, &second, &errors)) fuzz::Violated("a re-encoded link does not decode");
  if (!fuzz::SameScenario(first.scenario, second.scenario)) fuzz::Violated("link round trip changed the scenario");
  if (first.pinned.size() != second.pinned.size()) fuzz::Violated("link round trip changed the pinned count");
  for (std::size_t i = 0; i < first.pinned.size(); ++i)
    if (!fuzz::SameScenario(first.pinned[i], second.pinned[i])) fuzz::Violated("link round trip changed a pinned scenario");
  return 0;
}
