// evidence_band_json.h — the held-out error band beside a result's headline (issue 46; evidence/evidence_band.h
// finds it): the result document's evidence_band, the line `gpucost eval` / `gpucost inference` print and the
// page's headline draws.
#pragma once
#include <string>

#include "evidence/evidence_band.h"
#include "job/evaluate.h"
#include "scenario/scenario.h"

namespace gpucost {

// The band of a result: it applies when the result's figures are the model's prediction (a serving result, or a
// training step without a given cluster.mfu); applies = false otherwise.
EvidenceBand ResultEvidenceBand(const Scenario& s, const Result& r);

// Whether the band can be found without waiting: its table (assets/held_out.json) is here. The page fetches the table
// once its first frame is drawn and its later code has arrived, and draws the band from then on (issue 47).
bool EvidenceBandReady();

// "Held-out error of similar runs: -8% .. +14% on 6 similar runs" in the current language (empty when the band
// does not apply).
std::string EvidenceBandLine(const EvidenceBand& b);

}  // namespace gpucost
