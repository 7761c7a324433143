// evidence_json.h — the evidence document (gpucost catalog evidence; the page's Evidence view): the model against
// published runs, held out per source, and a scenario's nearest runs (evidence/evidence.h computes it).
#pragma once
#include "evidence/evidence.h"
