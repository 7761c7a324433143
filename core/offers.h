// offers.h — the offers catalog (assets/offers.json, embedded at build time): dated public list prices of
// GPU instances (per GPU-hour and per instance-hour, GPUs per instance, region, date, source). Every offer
// is an example that users override with their own quote.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "json_io.h"
#include "scenario.h"

namespace gpucost {

constexpr const char* kOffersSchema = "gpucost/offers@1";

struct Offer {
  std::string id;              // "aws-p5.48xlarge-us-east-1"
  std::string provider;        // "AWS"
  std::string product;         // "p5.48xlarge (8x H100 SXM)"
  std::string gpu;             // catalog id (assets/gpus.json)
  std::string region;
  PricingModel model = PricingModel::kOnDemand;  // on_demand or reserved (a dated reservation rate)
  bool capacity_guaranteed = false;
  int gpus_per_instance = 0;
  double usd_per_gpu_hour = 0;       // before tax
  double usd_per_instance_hour = 0;  // before tax
  double spot_usd_per_gpu_hour = 0;  // 0: no published spot price
  std::string date;                  // when the price was read (or valid)
  std::string source;                // the provider's page or API
  std::string via;                   // third-party transcription the figure was read from ("" if none)
  std::string note;
};

// Parses an offers document. Errors name the JSON path (e.g. "offers[3].usd_per_gpu_hour") and the range.
std::vector<Offer> ParseOffersJson(std::string_view text, std::vector<InputError>* errors);

// The embedded catalog (parsed once).
const Offer* Offers();
std::size_t OfferCount();
const Offer* FindOffer(std::string_view id);

// Applies an offer to a scenario: cluster.gpu, cluster.gpus_per_node, pricing.usd_per_gpu_hour (the
// KRW price is cleared), pricing.model (on_demand, or reserved with its capacity guarantee), and
// pricing.spot.discount where the offer publishes a spot price, and records the offer's id in pricing.offer.
// Prices are before tax.
void ApplyOffer(const Offer& offer, Scenario* s);

}  // namespace gpucost
