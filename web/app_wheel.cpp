// app_wheel.cpp — browser wheel events in Dear ImGui's terms. A normal page scrolls by the event's delta:
// pixels (Chrome, trackpads), lines (Firefox's mouse wheel) or pages, with a positive deltaY moving the
// content up (scrolling down). ImGui scrolls a window by io.MouseWheel x its own step (5 x font size
// vertically, 2 x horizontally) with the opposite sign. WheelToImGui converts one into the other so that a
// notch or a trackpad pixel moves the panel under the pointer as far, and the same way, as a page would.
#include <cmath>

#include "app.h"

namespace gpucost::app {

WheelSteps WheelToImGui(const WheelInput& in) {
  const double dpr = in.device_pixel_ratio > 0 ? in.device_pixel_ratio : 1;
  const double font_px = in.font_px > 0 ? in.font_px : 13 * dpr;  // device pixels, as ImGui's font
  double per_unit_css = 1;  // CSS pixels per delta unit
  if (in.delta_mode == 1) per_unit_css = kWheelLineCssPx;
  else if (in.delta_mode == 2) per_unit_css = in.page_css_px > 0 ? in.page_css_px : 600;
  double dx = in.delta_x * per_unit_css * dpr, dy = in.delta_y * per_unit_css * dpr;  // device pixels
  const double step_y = std::floor(5 * font_px), step_x = std::floor(2 * font_px);  // imgui.cpp 1.86
  WheelSteps out;
  if (in.shift) {
    // ImGui turns the vertical wheel into horizontal scrolling while Shift is down (and then ignores
    // MouseWheelH); browsers may already have moved the delta to deltaX.
    out.vertical = static_cast<float>(-(dx != 0 ? dx : dy) / step_x);
    return out;
  }
  out.vertical = static_cast<float>(-dy / step_y);
  out.horizontal = static_cast<float>(-dx / step_x);
  return out;
}

}  // namespace gpucost::app
