// One finger in ImGui's terms (web/app_touch.cpp): a drag moves the content with the finger, a flick coasts as
// far as its speed x the decay time (the integral of v e^(-t/tau)), a tap is a press then a release.
#include <doctest/doctest.h>

#include <cmath>

#include "app.h"

using namespace gpucost::app;

namespace {

// Plays frames every `frame_ms` from `from_ms` until the touch wants no more; returns the total scroll.
double Coast(TouchState& t, double from_ms, double frame_ms, int* frames = nullptr) {
  double total = 0;
  int n = 0;
  for (double ms = from_ms; n < 2000; ms += frame_ms, ++n) {
    const TouchFrame f = TouchForFrame(t, ms);
    total += f.scroll_dy;
    if (!f.wants_frames) break;
  }
  if (frames) *frames = n;
  return total;
}

}  // namespace

TEST_CASE("touch: a slow drag scrolls the panel under the finger by as far as the finger moved") {
  TouchState t;
  TouchStart(t, 100, 600, 0);
  double scrolled = 0;
  for (int i = 1; i <= 30; ++i) {  // 300 px up over 3 s, one frame per move
    TouchMove(t, 100, 600 - 10 * i, 100.0 * i);
    const TouchFrame f = TouchForFrame(t, 100.0 * i);
    CHECK(f.own_pointer);
    CHECK(!f.down);                          // never a click on what is under the finger
    CHECK(f.x == 100);                       // the pointer stays where the finger went down: the same panel
    CHECK(f.y == 600);
    scrolled += f.scroll_dy;
  }
  CHECK(scrolled == doctest::Approx(300));  // finger up 300 px: content up 300 px (= a wheel delta of +300)
  TouchEnd(t, 100, 300, 3200);              // held still 200 ms before lifting: no throw
  CHECK(Coast(t, 3216, 16) == doctest::Approx(0));
  const TouchFrame after = TouchForFrame(t, 4000);
  CHECK(after.own_pointer);
  CHECK(!after.has_pointer);  // lifted: nothing hovered (no tooltip left open)
}

TEST_CASE("touch: a flick coasts on, as far as speed x decay time, and a finger stops it") {
  TouchState t;
  TouchStart(t, 50, 700, 0);
  for (int i = 1; i <= 10; ++i) TouchMove(t, 50, 700 - 20 * i, 10.0 * i);  // 2 px/ms upwards
  const TouchFrame during = TouchForFrame(t, 100);
  CHECK(during.scroll_dy == doctest::Approx(200));
  TouchEnd(t, 50, 500, 100);
  int frames = 0;
  const double coast = Coast(t, 116, 16, &frames);
  // v tau = 2 px/ms x 325 ms = 650 px; the last px/ms below the stop speed is left out (0.03 x 325 = ~10 px).
  CHECK(coast == doctest::Approx(2 * kTouchMomentumMs).epsilon(0.05));
  CHECK(frames > 20);

  TouchState u;
  TouchStart(u, 50, 700, 0);
  for (int i = 1; i <= 10; ++i) TouchMove(u, 50, 700 - 20 * i, 10.0 * i);
  TouchEnd(u, 50, 500, 100);
  TouchForFrame(u, 116);
  TouchStart(u, 50, 400, 130);  // a finger on the coasting panel
  CHECK(TouchForFrame(u, 146).scroll_dy == 0);
  TouchEnd(u, 50, 400, 200);   // ... and lifted without moving: a tap, not more coasting
  CHECK(Coast(u, 216, 16) == 0);
}

TEST_CASE("touch: a tap is a hover, a press in the next frame and a release in the one after, at the finger; then no hover") {
  TouchState t;
  TouchStart(t, 120, 40, 0);
  TouchMove(t, 123, 42, 30);  // a finger wobbles a little: still a tap
  TouchEnd(t, 123, 42, 60);   // the whole tap between two frames
  TouchFrame f = TouchForFrame(t, 70);  // ImGui first sees the pointer over the target (issue 47)
  CHECK((f.has_pointer && !f.down && f.x == 120 && f.y == 40 && f.wants_frames));
  f = TouchForFrame(t, 78);
  CHECK((f.has_pointer && f.down && f.x == 120 && f.y == 40));
  f = TouchForFrame(t, 86);
  CHECK((f.has_pointer && !f.down && f.x == 120));
  f = TouchForFrame(t, 102);
  CHECK((f.own_pointer && !f.has_pointer && !f.wants_frames));
}

TEST_CASE("touch: a finger held still, however long, then lifted is a tap; the mouse keeps the pointer until a finger comes") {
  TouchState idle;
  CHECK(!TouchForFrame(idle, 0).own_pointer);
  TouchState t;
  TouchStart(t, 200, 300, 0);
  const TouchFrame held = TouchForFrame(t, 2000);  // a slow frame, or a finger resting: still no press
  CHECK((held.has_pointer && !held.down && held.scroll_dy == 0));
  TouchMove(t, 230, 300, 2100);  // then it moves: a swipe, never a drag of what is under it
  const TouchFrame f = TouchForFrame(t, 2116);
  CHECK((!f.down && f.scroll_dx == doctest::Approx(-30) && f.x == 200));
  TouchEnd(t, 230, 300, 2300);
  TouchState u;
  TouchStart(u, 10, 10, 0);
  TouchEnd(u, 10, 10, 3000);
  CHECK(!TouchForFrame(u, 3010).down);  // the tap plays after any wait: its hover frame,
  CHECK(TouchForFrame(u, 3026).down);   // then its press
}

TEST_CASE("pointer: a press that comes with a move waits a frame (ImGui sees the hover first); a press in place does not") {
  PressHold h;
  CHECK(!PressForFrame(h, 100, 100, false));   // the pointer arrives
  CHECK(PressForFrame(h, 100, 100, true));     // pressed where it was: at once
  CHECK(!PressForFrame(h, 100, 100, false));   // released
  // A quick click somewhere else (moved, pressed and released between two frames: reported down once).
  CHECK(!PressForFrame(h, 400, 60, true));     // the move only
  CHECK(PressForFrame(h, 400, 60, false));     // then the press
  CHECK(!PressForFrame(h, 400, 60, false));    // then the release
  // A press held down across the frames stays down.
  CHECK(!PressForFrame(h, 10, 10, true));
  CHECK(PressForFrame(h, 10, 10, true));
  CHECK(PressForFrame(h, 12, 10, true));       // a drag: down all along
  CHECK(!PressForFrame(h, 12, 10, false));
}
