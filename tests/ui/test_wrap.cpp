// Issue 30: wrapped text never breaks inside a number. ImGui 1.86 may break a line after . , ; ! ? and a quote,
// which cut "$0.434" into "$0." and "434" on a phone; scripts/setup.sh changes its word wrap so that a break
// after punctuation is kept only when no digit follows. Checked here on ImGui's own wrap function, at every
// width at which each word fits on a line (narrower, ImGui must cut a word anywhere).
#include <doctest/doctest.h>

#include <cctype>
#include <cstring>
#include <string>

#include "imgui.h"

namespace {

struct WrapContext {
  WrapContext() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->AddFontDefault();
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~WrapContext() { ImGui::DestroyContext(); }
};

bool Digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

}  // namespace

TEST_CASE("word wrap: no line ends inside a number ($0.434, 1,234,567, 67.3ms), at every width where the words fit") {
  WrapContext context;
  ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
  const char* const texts[] = {
      "Cost per million output tokens $3.91 | per million input tokens $0.434 | per hour $352",
      "186,880 GPU-hours, 1,234,567 requests; 30 days, $253,492.",
      "P50 67.3ms P90 177ms P99 333ms (12.5% of 1,000,000 tokens/s)",
  };
  int lines_checked = 0;
  for (const char* text : texts) {
    CAPTURE(text);
    const char* end = text + std::strlen(text);
    float widest_word = 0;
    for (const char* w = text; w < end;) {
      const char* e = w;
      while (e < end && *e != ' ') ++e;
      widest_word = std::max(widest_word, font->CalcTextSizeA(font->FontSize, 1e9f, 0, w, e).x);
      w = e < end ? e + 1 : e;
    }
    const float full = font->CalcTextSizeA(font->FontSize, 1e9f, 0, text, end).x;
    for (float width = widest_word + 1; width < full; width += 1) {
      for (const char* s = text; s < end;) {
        const char* brk = font->CalcWordWrapPositionA(1.0f, s, end, width);
        if (brk == s) brk = s + 1;  // ImGui's own guard against an empty line
        if (brk < end) {
          ++lines_checked;
          const bool inside = Digit(brk[0]) && (Digit(brk[-1]) || ((brk[-1] == '.' || brk[-1] == ',') && brk - 1 > text && Digit(brk[-2])));
          CHECK_MESSAGE(!inside, "width " << width << ": a line ends with \"" << std::string(s, brk) << "\"");
        }
        s = brk;
        while (s < end && *s == ' ') ++s;
      }
    }
  }
  MESSAGE(lines_checked << " line ends checked");
  CHECK(lines_checked > 100);
}

TEST_CASE("word wrap: every wrapped line fits its width, Korean text included") {
  WrapContext context;
  ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
  const char* const texts[] = {
      "GPU 1, 2, 3, 4, 6, 8\xEC\x9E\xA5\xEC\x97\x90\xEC\x84\x9C \xEB\xB9\x88 \xEA\xB5\xAC\xEA\xB0\x84: GPU \xEB\xA9\x94\xEB\xAA\xA8\xEB\xA6\xAC\xEC\x97\x90 \xEB\x93\xA4\xEC\x96\xB4\xEA\xB0\x80\xEC\xA7\x80 \xEC\x95\x8A\xEC\x9D\x8C",
      "Gap at 1, 2, 3, 4, 6, 8 GPUs: does not fit in GPU memory",
  };
  for (const char* text : texts) {
    CAPTURE(text);
    const char* end = text + std::strlen(text);
    for (float width = 120; width < 400; width += 7) {
      CAPTURE(width);
      for (const char* s = text; s < end;) {
        const char* brk = font->CalcWordWrapPositionA(1.0f, s, end, width);
        if (brk == s) brk = s + 1;
        const char* line_end = brk;
        while (line_end > s && line_end[-1] == ' ') --line_end;
        CHECK(font->CalcTextSizeA(font->FontSize, 1e9f, 0, s, line_end).x <= width + 0.5f);
        s = brk;
        while (s < end && *s == ' ') ++s;
      }
    }
  }
}
