// ui_offers.cpp — the offer picker in the editor's pricing section: a dated public offer from the catalog
// (assets/offers.json: provider, region, GPU, price, date, source) fills the GPU, the node size, the price, the
// pricing model and the billing rules (increment, minimum, whole instances, where a source confirms them; the
// notice names those left unconfirmed) and is recorded in pricing.offer (core ApplyOffer, as `gpucost pricing --offer`). A GPU
// changed away from the offer's clears it: the price is then unconfirmed, and the status line says so.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "app.h"
#include "catalog.h"
#include "format.h"
#include "offers.h"

namespace gpucost::app {
namespace {

std::string OfferLabel(const Offer& o) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s %s: %s, $%.4g/GPU-h%s (%s)", o.provider.c_str(), o.region.c_str(), o.product.c_str(),
                o.usd_per_gpu_hour, o.model == PricingModel::kReserved ? " reserved" : "", o.date.c_str());
  return buf;
}

void OfferTooltip(const Offer& o) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(std::min(ImGui::GetFontSize() * 32, ImGui::GetIO().DisplaySize.x - ImGui::GetFontSize() * 2));
  ImGui::Text("%s: %s (%s)", o.provider.c_str(), o.product.c_str(), o.region.c_str());
  ImGui::Text("%s per GPU-hour, %s per instance-hour of %d GPUs, before tax; read %s", FormatUsd(o.usd_per_gpu_hour).c_str(),
              FormatUsd(o.usd_per_instance_hour).c_str(), o.gpus_per_instance, o.date.c_str());
  ImGui::TextWrapped("%s", OfferBillingText(o).c_str());
  if (!o.billing.note.empty()) ImGui::TextDisabled("%s", o.billing.note.c_str());
  ImGui::TextDisabled("Source: %s", o.source.c_str());
  if (!o.via.empty()) ImGui::TextDisabled("Via: %s", o.via.c_str());
  if (!o.note.empty()) ImGui::TextDisabled("%s", o.note.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace

void AppApplyOffer(AppState& app, const Offer& offer) {
  ApplyOffer(offer, &app.scenario);
  AppScenarioEdited(app);
  // The billing figures it filled, and those no public source confirmed (kept as they were), as the CLI says.
  app.notice = "Offer " + offer.id + ": " + FormatUsd(offer.usd_per_gpu_hour) + "/GPU-hour before tax, read " + offer.date +
               "; " + OfferBillingText(offer, &app.scenario, false);
}

void AppGpuChanged(AppState& app) {
  const Offer* offer = app.scenario.pricing.offer[0] ? FindOffer(app.scenario.pricing.offer) : nullptr;
  if (!offer || offer->gpu == app.scenario.cluster.gpu) return;
  const GpuSpec* gpu = FindGpu(app.scenario.cluster.gpu);
  const std::string notice = "The price " + FormatUsd(app.scenario.pricing.usd_per_gpu_hour) + "/GPU-hour was offer " + offer->id +
               " for " + offer->gpu + ": it is now unconfirmed for " + (gpu ? gpu->name : std::string(app.scenario.cluster.gpu)) +
               " (pick an offer or enter your price)";
  app.scenario.pricing.offer[0] = '\0';
  AppScenarioEdited(app);  // (clears the notice)
  app.notice = notice;
}

namespace {

void OfferList(AppState& app, const Offer* current) {
  for (std::size_t i = 0; i < OfferCount(); ++i) {
    const Offer& o = Offers()[i];
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Selectable(OfferLabel(o).c_str(), current == &o)) AppApplyOffer(app, o);
    RecordRect(app, "offer", static_cast<int>(i));
    if (ImGui::IsItemHovered()) OfferTooltip(o);
    ImGui::PopID();
  }
  if (app.scenario.pricing.offer[0] && ImGui::Selectable("(none: my own price)")) {
    app.scenario.pricing.offer[0] = '\0';
    AppScenarioEdited(app);
  }
}

}  // namespace

void DrawOfferPicker(AppState& app) {
  const Offer* current = app.scenario.pricing.offer[0] ? FindOffer(app.scenario.pricing.offer) : nullptr;
  const std::string preview = current ? current->id : app.scenario.pricing.offer[0] ? app.scenario.pricing.offer : "(own price) pick an offer...";
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##offer", preview.c_str())) {
    OfferList(app, current);
    ImGui::EndCombo();
  } else if (current && ImGui::IsItemHovered()) {
    OfferTooltip(*current);
  }
  RecordRect(app, "pricing.offer");
  current = app.scenario.pricing.offer[0] ? FindOffer(app.scenario.pricing.offer) : nullptr;  // (picked just now)
  const std::string billing = current ? OfferBillingText(*current, &app.scenario, false) : "";
  RecordText(app, "offer_billing", billing);
  if (current) {  // what the offer filled of the billing, and what no source confirmed (kept as it was)
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", billing.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace gpucost::app
