// app_actual.h — the Plan vs actual view's state (ui_actual.cpp, issue 49): a run record or a log set against the
// edited scenario, the document of `gpucost actual SCENARIO RUN` (core/documents/actual.h). Apart from app.h, which
// names it only, so that the page's first-frame code does not carry the code that builds and frees it.
#pragma once
#include <string>
#include <vector>

#include "app.h"
#include "documents/actual.h"

namespace gpucost::app {

struct ActualState {
  std::string run_name, run_text;  // what was dropped, picked or pasted
  RunInput input;                  // read from run_text: a record, or a log read into one
  ActualDoc doc;
  std::string document;            // ActualToJson, "" until computed
  long for_evaluation = -1;        // app.evaluations it was computed for
  std::vector<char> paste;         // the view's paste box (allocated when first drawn)
  // The run's figures are in the plan (Adopt pressed): calibrating against the adopted plan would count the same
  // failures twice (an MTBF of 50,000 h fell to 33,353, 22,256, ... on each press). Until a run is loaded again.
  bool adopted = false;
};

}  // namespace gpucost::app
