// open.h — what the CLI and the page open: a scenario from its JSON (read and checked whole: job/validate.h), a
// preset (presets.h) or a share link (link.h).
#pragma once
#include "documents/link.h"
#include "documents/presets.h"
#include "job/validate.h"
