// app_lang.cpp — the page's language and the fonts that draw it. English needs only ImGui's built-in font;
// Korean merges subsets of NanumGothic (scripts/subset_font.py) into the atlas as they arrive:
//   ko-min.ttf     "한국어", ₩ and "·": the language switch, KRW and a middle dot in English (after the first frame)
//   ko-ui.ttf      every character of the string tables and assets (before the first frame, in Korean)
//   ko-typing.ttf  KS X 1001's 2,350 syllables: fetched when someone first types Hangul (index.html's IME
//                  input asks on compositionstart) or when a scenario name holds Hangul the atlas lacks.
#include <imgui.h>

#include <cmath>
#include <cstring>
#include <set>

#include "app.h"
#include "platform.h"

namespace gpucost::app {
namespace {

const char* const kFontFiles[] = {"ko-min.ttf", "ko-ui.ttf", "ko-typing.ttf"};
// The middle dot and everything above Latin-1 (ImGui's own font has the rest of Latin-1, AppApplyUiScale); glyphs a
// subset lacks are skipped by ImGui.
const ImWchar kMergeRanges[] = {0x00B7, 0x00B7, 0x0100, 0xFFFF, 0};

unsigned NextCodePoint(const char*& p) {  // decodes one UTF-8 sequence (invalid bytes as themselves)
  const unsigned char c = static_cast<unsigned char>(*p++);
  const int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  unsigned cp = extra == 3 ? c & 0x07 : extra == 2 ? c & 0x0F : extra == 1 ? c & 0x1F : c;
  for (int i = 0; i < extra && (static_cast<unsigned char>(*p) & 0xC0) == 0x80; ++i) cp = cp << 6 | (*p++ & 0x3F);
  return cp;
}

bool AtlasDraws(unsigned cp) {
  ImFont* font = ImGui::GetIO().Fonts->Fonts.empty() ? nullptr : ImGui::GetIO().Fonts->Fonts[0];
  return cp < 0x80 || (font && cp <= 0xFFFF && font->FindGlyphNoFallback(static_cast<ImWchar>(cp)) != nullptr);
}

// A language's strings: installed from what the page fetched. Returns false when they have not arrived.
bool InstallFetchedStrings(Lang lang) {
  if (HasLanguageTable(lang)) return true;
  const std::string text = platform::LanguageTableText(LanguageCode(lang));
  return !text.empty() && InstallLanguageTable(lang, text);
}

// Installed, else asked for (English and, natively, every language are embedded; until Korean arrives the page
// draws English).
void NeedStrings(Lang lang) {
  if (!InstallFetchedStrings(lang)) platform::RequestLanguageTable(LanguageCode(lang));
}

}  // namespace

void AppLanguageTablesArrived(AppState& app) {
  if (InstallFetchedStrings(Lang::kKo)) app.dirty = true;  // (nothing is asked for here)
}

void AppInitLanguage(AppState& app) {
  Lang lang = Lang::kEn;
  if (!ParseLanguage(platform::StoredLanguage(), &lang)) ParseLanguage(platform::HostLanguage(), &lang);
  SetLanguage(lang);
  app.dirty = true;
  if (lang == Lang::kKo) platform::RequestFont("ko-ui.ttf"), NeedStrings(lang);
}

void AppSetLanguage(AppState& app, Lang lang) {
  SetLanguage(lang);
  platform::StoreLanguage(LanguageCode(lang));
  if (lang == Lang::kKo) platform::RequestFont("ko-ui.ttf"), NeedStrings(lang);
  app.dirty = true;  // results hold translated warnings: evaluate again (the scenario itself is unchanged)
}

void DrawLanguageSwitch(AppState& app) {
  const Lang other = CurrentLanguage() == Lang::kKo ? Lang::kEn : Lang::kKo;
  const char* label = LanguageAutonym(other);  // each language named in itself
  if (other == Lang::kKo && !AtlasDraws(0xD55C)) label = "Korean";  // until ko-min.ttf has arrived
  ImGui::PushID("lang");
  if (ImGui::SmallButton(label)) AppSetLanguage(app, other);
  ImGui::PopID();
  RecordRect(app, "language");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", Tr("ui.language_tooltip"));
  if (app.frames > 1) platform::RequestFont("ko-min.ttf");  // after the first frame: not part of first load
}

void AppAddFonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  for (const char* name : kFontFiles) {
    const std::string bytes = platform::FontBytes(name);
    if (bytes.empty()) continue;
    void* data = IM_ALLOC(bytes.size());  // the atlas owns and frees it
    std::memcpy(data, bytes.data(), bytes.size());
    ImFontConfig cfg;
    cfg.MergeMode = true;
    cfg.SizePixels = std::round(14.0f * scale);
    cfg.OversampleH = 1;  // Hangul is dense: one sample keeps the atlas small and the strokes sharp
    cfg.PixelSnapH = true;
    std::snprintf(cfg.Name, sizeof cfg.Name, "%s", name);
    io.Fonts->AddFontFromMemoryTTF(data, static_cast<int>(bytes.size()), cfg.SizePixels, &cfg, kMergeRanges);
  }
}

void AppFontsFollowText(AppState& app) {
  const char* p = app.scenario.name;
  while (*p)
    if (const unsigned cp = NextCodePoint(p); cp >= 0x1100 && !AtlasDraws(cp)) {
      platform::RequestFont("ko-typing.ttf");
      return;
    }
}

std::vector<unsigned> AppMissingGlyphs(Lang lang) {
  std::set<unsigned> missing;
  for (const std::string& key : TranslationKeys(lang))
    for (const char* p = Tr(lang, key.c_str()); *p;)
      if (const unsigned cp = NextCodePoint(p); cp >= 0x20 && !AtlasDraws(cp)) missing.insert(cp);
  if (!AtlasDraws(0x20A9)) missing.insert(0x20A9);  // ₩
  return {missing.begin(), missing.end()};
}

}  // namespace gpucost::app
