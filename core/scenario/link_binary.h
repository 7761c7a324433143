// link_binary.h — the compact form of a share link (version 2), used by link.cpp.
//
//   bytes = [2] [varint count] scenario x count [CRC-32 of everything before, 4 bytes little-endian]
//   scenario = [varint base] [varint changes] change x changes [tail] scaling load_profile
//     base 0: the defaults; base j >= 1: scenario j-1 of this link (an earlier one). The encoder picks the base
//     that needs the fewest bytes, so a pinned column that differs from the first scenario in its GPU count
//     costs its name and one number.
//   change = [varint (index delta - 1) << 1 | reset] value   (index into kLinkFieldPaths, ascending)
//     reset: the field goes back to its default (absent); else its value by kind: number/integer as a decimal
//     (varint zigzag exponent, varint zigzag digits: 70e9 is two bytes), bool one byte, enum its index, text
//     its UTF-8 length and bytes.
//   tail = one byte: bits 0-1 the scaling points (0 as the base, 1 none, 2 given), bits 2-3 inference.load_profile
//     (0 as the base, 1 none, 2 a preset, 3 custom), bit 4 "inference.autoscale": {} given or taken away (issue
//     28; links made before it have bits 2-4 clear and open as they did).
//   scaling (when given) = varint points, (gpus, tokens_per_second) as numbers each.
//   load_profile = a preset: varint index into kLoadProfileNames; custom: 24 numbers (hour 0 to 23).
// Decoding rebuilds each scenario as JSON and reads it with the scenario file parser, so a link is validated
// exactly like a file. The CRC-32 detects every change of one or two neighbouring characters.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/message.h"
#include "scenario/scenario.h"

namespace gpucost {

// The fields a version-2 link can carry, in a fixed order: append new fields at the end, never reorder (the
// index is what travels). A field missing here makes EncodeLink fall back to the JSON form (test_link checks
// that every field is listed).
const char* const* LinkFieldPaths();
std::size_t LinkFieldPathCount();

// Encodes the scenarios (the first, then the pinned). Returns false when one holds a field the table lacks.
bool EncodeLinkBinary(const std::vector<const Scenario*>& scenarios, std::string* bytes);
// Decodes into compact scenario JSON documents (to be parsed). Returns an empty message or what is wrong.
Message DecodeLinkBinary(const std::string& bytes, std::vector<std::string>* scenario_json);

std::uint32_t Crc32(const std::string& bytes, std::size_t n);

}  // namespace gpucost
