// asserts.cpp — the switch, the handler and the site registry behind GPUCOST_ASSERT (asserts.h).
#include "base/asserts.h"

#include <cstdio>
#include <cstdlib>

namespace gpucost {

#ifdef GPUCOST_ASSERTS_ON
bool g_asserts_on = true;
#else
bool g_asserts_on = false;
#endif

namespace {
AssertHandler g_handler = nullptr;
AssertSite* g_sites = nullptr;
int g_site_count = 0;
}  // namespace

void SetAssertsOn(bool on) { g_asserts_on = on; }

AssertHandler SetAssertHandler(AssertHandler handler) {
  AssertHandler before = g_handler;
  g_handler = handler;
  return before;
}

void AssertFailed(const char* file, int line, const char* condition, const char* what) {
  if (g_handler) return g_handler(file, line, condition, what);
  std::fprintf(stderr, "GPUCOST_ASSERT failed: %s (%s) at %s:%d\n", what, condition, file, line);
  std::abort();
}

AssertSite::AssertSite(const char* f, int l) : file(f), line(l), next(g_sites) {
  g_sites = this;
  ++g_site_count;
}

int AssertSitesChecked() { return g_site_count; }
const AssertSite* FirstAssertSite() { return g_sites; }

}  // namespace gpucost
