// ui_offers.cpp — the offer picker in the editor's pricing section: a dated public offer from the catalog
// (assets/offers.json: provider, region, GPU, price, date, source) fills the GPU, the node size, the price and
// the pricing model and is recorded in pricing.offer (core ApplyOffer, as `gpucost pricing --offer`). A GPU
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
                o.usd_per_gpu_hour, o.model == PricingModel::kReserved ? Tr("offer.reserved") : "", o.date.c_str());
  return buf;
}

void OfferTooltip(const Offer& o) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(std::min(ImGui::GetFontSize() * 32, ImGui::GetIO().DisplaySize.x - ImGui::GetFontSize() * 2));
  ImGui::Text("%s: %s (%s)", o.provider.c_str(), o.product.c_str(), o.region.c_str());
  ImGui::TextUnformatted(TrFormat("offer.tip_price", {FormatUsd(o.usd_per_gpu_hour), FormatUsd(o.usd_per_instance_hour),
                                                      std::to_string(o.gpus_per_instance), o.date}).c_str());
  ImGui::TextDisabled("%s", TrFormat("ui.source", {o.source}).c_str());
  if (!o.via.empty()) ImGui::TextDisabled("%s", TrFormat("offer.via", {o.via}).c_str());
  if (!o.note.empty()) ImGui::TextDisabled("%s", o.note.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace

void AppApplyOffer(AppState& app, const Offer& offer) {
  ApplyOffer(offer, &app.scenario);
  AppScenarioEdited(app);
  app.notice = TrFormat(Lang::kEn, "msg.offer.applied", {offer.id, FormatUsd(offer.usd_per_gpu_hour), offer.date});  // shown localised
}

void AppGpuChanged(AppState& app) {
  const Offer* offer = app.scenario.pricing.offer[0] ? FindOffer(app.scenario.pricing.offer) : nullptr;
  if (!offer || offer->gpu == app.scenario.cluster.gpu) return;
  const GpuSpec* gpu = FindGpu(app.scenario.cluster.gpu);
  const std::string notice = TrFormat(Lang::kEn, "msg.offer.unconfirmed", {FormatUsd(app.scenario.pricing.usd_per_gpu_hour), offer->id,
                                                                      offer->gpu, gpu ? gpu->name : std::string(app.scenario.cluster.gpu)});
  app.scenario.pricing.offer[0] = '\0';
  AppScenarioEdited(app);  // (clears the notice)
  app.notice = notice;
}

void DrawOfferPicker(AppState& app) {
  const Offer* current = app.scenario.pricing.offer[0] ? FindOffer(app.scenario.pricing.offer) : nullptr;
  const std::string preview = current ? current->id : app.scenario.pricing.offer[0] ? app.scenario.pricing.offer : Tr("offer.pick");
  ImGui::SetNextItemWidth(-1);
  const bool open = ImGui::BeginCombo("##offer", preview.c_str());
  RecordRect(app, "pricing.offer");
  if (current && !open && ImGui::IsItemHovered()) OfferTooltip(*current);
  if (!open) return;
  for (std::size_t i = 0; i < OfferCount(); ++i) {
    const Offer& o = Offers()[i];
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Selectable(OfferLabel(o).c_str(), current == &o)) AppApplyOffer(app, o);
    RecordRect(app, "offer", static_cast<int>(i));
    if (ImGui::IsItemHovered()) OfferTooltip(o);
    ImGui::PopID();
  }
  if (app.scenario.pricing.offer[0] && ImGui::Selectable(Tr("offer.none"))) {
    app.scenario.pricing.offer[0] = '\0';
    AppScenarioEdited(app);
  }
  ImGui::EndCombo();
}

}  // namespace gpucost::app
