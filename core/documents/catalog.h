// catalog.h — the data behind the model as the CLI lists it (gpucost catalog) and the page offers it as choices:
// the GPUs (hardware/catalog.h, with their measured-MFU calibration), the offers and their provider sheets
// (money/), the models by name (scenario/models.h) with their memory and MoE shape.
#pragma once
#include "hardware/calibration.h"
#include "hardware/catalog.h"
#include "money/offers.h"
#include "money/pricing_model.h"
#include "money/provider_sheet.h"
#include "scenario/models.h"
#include "training/memory.h"
#include "training/moe.h"
