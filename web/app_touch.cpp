// app_touch.cpp — one finger on a touch screen in Dear ImGui's terms. ImGui 1.86 knows a mouse and a wheel:
// a finger that drags becomes the wheel over the panel where it went down (so the page scrolls as a phone's
// lists do, then coasts with momentum), and a tap becomes a click (press in one frame, release in the next, then
// no hover so tooltips close). What a finger does is decided by its events alone (moved past the slop or not),
// never by how late a frame comes: a slow frame must not turn a swipe into a drag of whatever lay under it.
#include <algorithm>
#include <cmath>

#include "app.h"

namespace gpucost::app {

bool PressForFrame(PressHold& h, double x, double y, bool down) {
  bool use = down;
  if (h.held) {  // the frame after a held press: the press (a quick click has its release in the next frame)
    use = true;
    h.held = false;
  } else if (down && !h.was_down && (x != h.x || y != h.y)) {
    use = false;  // this frame: only the move
    h.held = true;
  }
  h.x = x;
  h.y = y;
  h.was_down = down;
  return use;
}

void TouchStart(TouchState& t, double x, double y, double ms) {
  t.mode = TouchMode::kPending;  // a finger on a coasting panel stops it
  t.start_x = t.x = x;
  t.start_y = t.y = y;
  t.start_ms = t.last_ms = ms;
  t.vx = t.vy = 0;
  t.pending_dx = t.pending_dy = 0;
  t.pointer_from_touch = true;
}

void TouchMove(TouchState& t, double x, double y, double ms) {
  if (t.mode == TouchMode::kIdle || t.mode == TouchMode::kMomentum) return;
  const double dx = x - t.x, dy = y - t.y, dt = ms - t.last_ms;
  if (t.mode == TouchMode::kPending && std::hypot(x - t.start_x, y - t.start_y) >= kTouchSlopCssPx) {
    t.mode = TouchMode::kScrolling;
    t.pending_dx += x - t.start_x - dx;  // the slop travels too: the content stays under the finger
    t.pending_dy += y - t.start_y - dy;
  }
  if (t.mode == TouchMode::kScrolling) {
    t.pending_dx += dx;
    t.pending_dy += dy;
    if (dt > 0) {  // smoothed over the last ~20 ms of movement
      const double a = std::min(1.0, dt / 20);
      t.vx += a * (dx / dt - t.vx);
      t.vy += a * (dy / dt - t.vy);
    }
  }
  t.x = x;
  t.y = y;
  t.last_ms = ms;
}

void TouchEnd(TouchState& t, double x, double y, double ms) {
  if (t.mode == TouchMode::kPending) {
    t.tap_frames = 3;  // a frame of hover at the finger, then the press, then the release (PressForFrame)
    t.tap_x = t.start_x;
    t.tap_y = t.start_y;
    t.mode = TouchMode::kIdle;
  } else if (t.mode == TouchMode::kScrolling) {
    // A finger that stopped before lifting does not throw the panel.
    const bool still = ms - t.last_ms > 80;
    TouchMove(t, x, y, ms);
    t.mode = !still && std::hypot(t.vx, t.vy) > kTouchStopPxPerMs ? TouchMode::kMomentum : TouchMode::kIdle;
    t.last_ms = ms;
  }
}

TouchFrame TouchForFrame(TouchState& t, double now_ms) {
  TouchFrame f;
  if (!t.pointer_from_touch) return f;
  f.own_pointer = true;
  if (t.tap_frames > 0 && t.mode != TouchMode::kScrolling && t.mode != TouchMode::kMomentum) {
    f.has_pointer = true;
    f.x = t.tap_x;
    f.y = t.tap_y;
    f.down = t.tap_frames == 2;  // 3: hover (ImGui sees the pointer there first), 2: press, 1: release
    --t.tap_frames;
    f.wants_frames = true;
    return f;
  }
  t.tap_frames = 0;
  switch (t.mode) {
    case TouchMode::kIdle: return f;  // lifted: no hover
    case TouchMode::kPending:  // hovering where the finger is, until it moves (a swipe) or lifts (a tap)
      f.has_pointer = true;
      f.x = t.start_x;
      f.y = t.start_y;
      return f;
    case TouchMode::kScrolling:
      break;
    case TouchMode::kMomentum: {
      const double dt = std::min(std::max(now_ms - t.last_ms, 0.0), 50.0);
      t.last_ms = now_ms;
      t.pending_dx += t.vx * dt;
      t.pending_dy += t.vy * dt;
      const double decay = std::exp(-dt / kTouchMomentumMs);
      t.vx *= decay;
      t.vy *= decay;
      if (std::hypot(t.vx, t.vy) < kTouchStopPxPerMs) t.mode = TouchMode::kIdle;
      break;
    }
  }
  // Scrolling: the pointer stays where the finger went down, so the same panel keeps scrolling.
  f.has_pointer = true;
  f.x = t.start_x;
  f.y = t.start_y;
  f.scroll_dx = -t.pending_dx;  // the finger moves up: the content moves up, as a wheel scrolling down
  f.scroll_dy = -t.pending_dy;
  t.pending_dx = t.pending_dy = 0;
  f.wants_frames = true;
  return f;
}

}  // namespace gpucost::app
