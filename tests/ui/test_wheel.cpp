// Wheel events in ImGui's terms (web/app_wheel.cpp): direction and distance as a normal page scrolls.
#include <doctest/doctest.h>

#include <cmath>

#include "app.h"

using namespace gpucost::app;

namespace {

// Device pixels ImGui scrolls a tall window for these steps (imgui.cpp 1.86: Scroll.y -= wheel x floor(5 x font)).
double ScrolledDownPx(const WheelSteps& s, float font_px) { return -s.vertical * std::floor(5 * font_px); }
double ScrolledRightPx(const WheelSteps& s, float font_px) { return -s.horizontal * std::floor(2 * font_px); }

}  // namespace

TEST_CASE("wheel: a 100 px notch (Chrome) scrolls 100 CSS px down, at any device pixel ratio") {
  for (double dpr : {1.0, 1.5, 2.0}) {
    WheelInput in;
    in.delta_y = 100;
    in.device_pixel_ratio = dpr;
    in.font_px = static_cast<float>(std::round(13 * dpr));
    const WheelSteps s = WheelToImGui(in);
    CHECK(s.vertical < 0);  // ImGui: negative wheel scrolls down
    CHECK(ScrolledDownPx(s, in.font_px) == doctest::Approx(100 * dpr));
    CHECK(s.horizontal == 0);
  }
}

TEST_CASE("wheel: a 4 px trackpad nudge up scrolls 4 px up, not a notch") {
  WheelInput in;
  in.delta_y = -4;
  in.font_px = 13;
  const WheelSteps s = WheelToImGui(in);
  CHECK(ScrolledDownPx(s, in.font_px) == doctest::Approx(-4));
}

TEST_CASE("wheel: line and page delta modes") {
  WheelInput in;
  in.delta_y = 3;  // Firefox: three lines per notch
  in.delta_mode = 1;
  in.font_px = 13;
  CHECK(ScrolledDownPx(WheelToImGui(in), in.font_px) == doctest::Approx(3 * kWheelLineCssPx));
  in.delta_y = -1;
  in.delta_mode = 2;
  in.page_css_px = 720;
  CHECK(ScrolledDownPx(WheelToImGui(in), in.font_px) == doctest::Approx(-720));
}

TEST_CASE("wheel: horizontal deltas and Shift scroll sideways") {
  WheelInput in;
  in.delta_x = 50;
  in.font_px = 13;
  CHECK(ScrolledRightPx(WheelToImGui(in), in.font_px) == doctest::Approx(50));
  // Shift + vertical wheel: ImGui reads io.MouseWheel as horizontal (2 x font step).
  in.delta_x = 0;
  in.delta_y = 100;
  in.shift = true;
  const WheelSteps s = WheelToImGui(in);
  CHECK(-s.vertical * std::floor(2 * in.font_px) == doctest::Approx(100));
  CHECK(s.horizontal == 0);
}
