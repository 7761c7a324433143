// billing.cpp — the one billing engine (billing.h).
#include "money/billing.h"

#include <algorithm>
#include <cmath>

#include "money/tco.h"
#include "base/asserts.h"
#include "base/format.h"
#include "hardware/partition.h"

#include <cstring>

namespace gpucost {

namespace {

// The parts that are GPU time a pool held (all but the commitment, storage, egress, fees and tax), in part order.
struct PartList {
  int part[kPartCount] = {};
  int count = 0;
};
constexpr PartList GpuTimeParts() {
  PartList l;
  for (int p = 0; p < kPartCount; ++p)
    if (!(p == kPartUnusedCommitment || p == kPartStorage || p == kPartEgress || p == kPartFees || p == kPartTax)) l.part[l.count++] = p;
  return l;
}
constexpr PartList kGpuTimeParts = GpuTimeParts();

}  // namespace

double CutSessionRounding(double inc, double min_s, double mean_s) {
  // E[ceil(L/inc) inc] = inc / (1 - e^{-inc/mean}) for L exponential: the rounding is inc/2 for sessions much
  // longer than the increment and inc - mean for much shorter ones.
  if (mean_s <= 0) return std::max(inc > 1 ? inc : 0.0, min_s);
  const double increments = inc > 1 ? inc / -std::expm1(-inc / mean_s) - mean_s : 0;
  const double rounding = std::max({0.0, increments, min_s - mean_s});
  GPUCOST_ASSERT(AmountOk(rounding) && rounding <= std::max(inc, min_s) + 1e-9 * mean_s,
                 "a cut session's expected rounding is at most one increment or the minimum");
  return rounding;
}

void PlanBilling(const Scenario& s, double billed_gpus, const char* gpu, BillingTerms* t, BillingNotes* r,
                 Warnings* warnings) {
  const PricingInputs& pr = s.pricing;
  *t = BillingTerms{};
  const bool owned = Model(s) == PricingModel::kOwned;
  double price = pr.krw_per_gpu_hour > 0 ? pr.krw_per_gpu_hour / pr.krw_per_usd : pr.usd_per_gpu_hour;
  t->tax_rate = pr.tax_rate;
  t->vat_recoverable = pr.vat_recoverable;
  t->tax_divisor = pr.price_includes_tax ? 1 + pr.tax_rate : 1.0;
  if (owned) {
    OwnedInputs o = OwnedFor(s, gpu);
    const bool lifetime_commitment = o.other_use_fraction > 0;
    if (lifetime_commitment) o.utilization = 1;  // every hour of the servers' life is paid: by this job or others
    r->has_tco = true;
    r->tco = ComputeTco(o, s.reliability.gpu_mtbf_hours);
    r->tco.source = OwnedSourceFor(s, gpu);
    r->tco.purchase_vat_usd_per_gpu = r->tco.upfront_usd_per_gpu * pr.tax_rate;
    if (warnings && OwnedCapexIsExample(s, gpu))
      warnings->Add("owned_capex_example", "msg.w_owned_capex_example",
                      {FormatParam("%.0f", o.capex_usd_per_gpu), gpu ? std::string(gpu) : std::string(s.cluster.gpu)});
    price = r->tco.usd_per_gpu_hour;
    t->taxable_fraction = r->tco.taxable_fraction;
    t->tax_divisor = 1;  // owned costs are entered before tax
    if (lifetime_commitment) {  // owned on a commitment's terms (pricing.owned.other_use_fraction)
      t->committed_gpus = billed_gpus;
      t->term_hours = o.lifetime_years * kHoursPerYear;
      t->committed_price_pretax = price;
      t->unused_paid_fraction = 1 - o.other_use_fraction;
    }
  }
  // Issue 50: a MIG slice of cluster.gpu pays its share of the GPU's price (partition.h): billed "GPUs" are slices.
  const Partition part = s.partition.profile[0] && std::strcmp(gpu ? gpu : s.cluster.gpu, s.cluster.gpu) == 0
                             ? ScenarioPartition(s) : Partition{};
  if (part.on) price *= part.price_fraction;
  // Owned on a commitment's terms: its term is paid at the slice's price too (money_laws found the whole GPU's
  // price on the term after the job while the job's hours paid the slice's: more work made the job cheaper).
  if (part.on && owned) t->committed_price_pretax *= part.price_fraction;
  if (Model(s) == PricingModel::kReserved) {
    const double committed = pr.reserved.committed_gpus > 0 ? static_cast<double>(pr.reserved.committed_gpus) : billed_gpus;
    const double on_demand = pr.reserved.usd_per_gpu_hour_on_demand > 0
                                 ? pr.reserved.usd_per_gpu_hour_on_demand * (part.on ? part.price_fraction : 1)
                                 : price;
    const double above = std::max(0.0, billed_gpus - committed);
    t->committed_price_pretax = price / t->tax_divisor;
    if (billed_gpus > 0) price = (std::min(billed_gpus, committed) * price + above * on_demand) / billed_gpus;
    t->committed_gpus = committed;
    t->term_hours = pr.reserved.term_months * kHoursPerMonth;
    t->unused_paid_fraction = 1 - pr.reserved.other_use_fraction;
  }
  t->bill_rounding = !owned;
  t->billing_increment_s = pr.billing_increment_seconds;
  t->minimum_billed_s = pr.minimum_billed_seconds;
  t->price_pretax = price / t->tax_divisor;
  // Storage, egress, fees and every other service are bought on the scenario's tax basis (owned or rented alike).
  t->services_tax_divisor = pr.price_includes_tax ? 1 + pr.tax_rate : 1.0;
  t->usd_per_gb_month = s.storage.usd_per_gb_month / t->services_tax_divisor;
  t->retention_hours = s.storage.retention_days * 24;
  t->egress_usd = s.storage.egress_gb * s.storage.usd_per_gb_egress / t->services_tax_divisor;
  t->fees_usd = pr.fixed_fees_usd / t->services_tax_divisor;
  r->usd_per_gpu_hour = t->price_pretax;
  GPUCOST_ASSERT(AmountOk(t->price_pretax), "the price per billed GPU-hour is an amount >= 0");
  GPUCOST_ASSERT(t->tax_divisor >= 1 && t->services_tax_divisor >= 1, "a price with tax included is divided by 1 + tax");
  GPUCOST_ASSERT(t->taxable_fraction >= 0 && t->taxable_fraction <= 1 + 1e-12, "the taxable share of GPU money is in [0, 1]");
  GPUCOST_ASSERT(AmountOk(t->committed_price_pretax) && t->unused_paid_fraction >= 0 && t->unused_paid_fraction <= 1,
                 "a commitment's price and paid share are in range");
  GPUCOST_ASSERT(AmountOk(t->usd_per_gb_month) && AmountOk(t->egress_usd) && AmountOk(t->fees_usd),
                 "storage, egress and fees are amounts >= 0");
  const PricingModel model = Model(s);
  t->stopped_billed = model == PricingModel::kOnDemand || model == PricingModel::kSpot;
  t->stopped_hours = pr.stopped_hours;
  t->stopped_price_fraction = pr.stopped_price_fraction;
  t->stopped_discount_hours = pr.stopped_discount_hours;
  r->display_currency = pr.currency == static_cast<int>(Currency::kKrw) ? "KRW" : "USD";
  r->display_per_usd = pr.currency == static_cast<int>(Currency::kKrw) ? pr.krw_per_usd : 1.0;
}

BillingTerms WithPoolPrice(const BillingTerms& t, double entered) {
  BillingTerms p = t;
  if (entered <= 0 || t.taxable_fraction != 1 || !t.bill_rounding) return p;  // owned: its own TCO
  p.price_pretax = entered / t.tax_divisor;
  if (p.committed_gpus > 0) p.committed_price_pretax = p.price_pretax;
  return p;
}

void BillGpuTime(const BillingTerms& t, const Usage& u, JobBill* out) {
  // A pool whose time overflowed the model's numeric range (an MFU of 1e-300) is refused at the edge
  // (evaluate.h NonFiniteResultPath); its parts are not checked here.
  const bool in_range = std::isfinite(u.wall_s) && std::isfinite(u.billed_gpus) && std::isfinite(u.held_hours);
  double g[kPartCount] = {};
  for (int p = 0; p < kPartCount; ++p) g[p] = u.gpu_hours.part[p];
  // Billing increments and minimums, per rental session: every billed GPU holds a rental across the wall time
  // (rounded exactly); each cut session (a preemption, a scale event) starts one more, whose random length adds
  // one more rounding (CutSessionRounding).
  if (t.bill_rounding && u.billed_gpus > 0) {
    const double inc = t.billing_increment_s;
    const double wall = u.wall_s;
    const double billed = std::max(std::ceil(wall / inc - 1e-9) * inc, t.minimum_billed_s);
    double rounding_gpu_s = u.billed_gpus * std::max(0.0, billed - wall);
    if (u.cut_sessions > 0 && u.session_gpus > 0) {
      const double sessions_per_holder = 1 + u.cut_sessions / std::max(1.0, u.billed_gpus / u.session_gpus);
      const double held_per_holder = std::max(0.0, wall - u.away_gpu_s / u.billed_gpus);
      rounding_gpu_s += u.cut_sessions * u.session_gpus *
                        CutSessionRounding(inc, t.minimum_billed_s, held_per_holder / sessions_per_holder);
    }
    if (u.exact_rounding_gpu_s >= 0) rounding_gpu_s = u.exact_rounding_gpu_s;
    // A commitment has no rental sessions to round: its GPUs are paid by the hour of the term (issue 45: rounding
    // charged to committed GPUs made a reserved service cheaper as it served more). Only GPUs above it round.
    if (t.committed_gpus > 0)
      rounding_gpu_s = u.billed_gpus > t.committed_gpus ? rounding_gpu_s * (u.billed_gpus - t.committed_gpus) / u.billed_gpus : 0;
    GPUCOST_ASSERT(!in_range || AmountOk(rounding_gpu_s), "billing rounding is a number of GPU-seconds >= 0");
    g[kPartBillingRounding] += rounding_gpu_s / 3600;
  }
  double gpu_usd = 0;
  for (int i = 0; i < kGpuTimeParts.count; ++i) {
    const int p = kGpuTimeParts.part[i];
    out->gpu_hours.part[p] += g[p];
    const double usd = p == kPartReacquireWait ? 0 : g[p] * t.price_pretax;  // waiting for capacity is not billed
    out->cost_usd.part[p] += usd;
    gpu_usd += usd;
  }
  if (AssertsOn()) {  // sums only the checks read
    double billed_gpu_h = 0;
    for (int i = 0; i < kGpuTimeParts.count; ++i) {
      const int p = kGpuTimeParts.part[i];
      GPUCOST_ASSERT(!in_range || AmountOk(g[p]), "every GPU-hour part a pool held is a number >= 0");
      if (p != kPartReacquireWait) billed_gpu_h += g[p];
    }
    // Every billed GPU-hour is priced once, at the pool's price: the pool's money is its billed GPU-hours x the price.
    GPUCOST_ASSERT(!in_range || ApproxEqual(gpu_usd, billed_gpu_h * t.price_pretax), "each billed GPU-hour priced once at the pool's price");
  }
  // A commitment is paid for every hour of its term, renewed for whole terms while the work runs longer (fresh2
  // A12: a 387-day job under a 12-month term paid its 13th month at the committed price and nothing for the rest
  // of the second term): GPUs committed above the pool's size while it runs, and all of them for the rest of the
  // last term, less what other work uses.
  if (t.committed_gpus > 0) {
    const double rounding_hours = u.billed_gpus > 0 ? g[kPartBillingRounding] / u.billed_gpus : 0;
    const double used_hours = u.held_hours + rounding_hours;
    const double terms = t.term_hours > 0 && std::isfinite(used_hours)
                             ? std::max(1.0, std::ceil(used_hours / t.term_hours * (1 - 1e-12))) : 1;
    const double after_hours = std::max(0.0, terms * t.term_hours - used_hours);
    if (terms >= out->commitment_terms) {
      out->commitment_terms = terms;
      out->commitment_after_job_hours = after_hours;
    }
    const double committed_usd = t.committed_price_pretax * t.unused_paid_fraction;
    const double above_gpus = std::max(0.0, t.committed_gpus - u.billed_gpus);
    const double after_usd = t.committed_gpus * after_hours * committed_usd * u.commitment_share;
    out->commitment_after_job_usd += after_usd;
    // The committed GPUs above the pool sit unused while it runs, its billed rounding included (the term after it
    // starts after that rounding).
    const double unused = above_gpus * (u.held_above_hours + rounding_hours) * committed_usd + after_usd;
    GPUCOST_ASSERT(!in_range || (AmountOk(after_usd) && AmountOk(unused) && after_usd <= unused * (1 + 1e-12) + 1e-9),
                   "the unused commitment is >= 0 and holds the term after the work");
    // Each term is paid once: the committed GPUs' hours (used, rounded, or after the work) are the whole terms
    // bought, and the last term is needed (the work runs into it).
    GPUCOST_ASSERT(!in_range || !std::isfinite(used_hours) ||
                       ((ApproxEqual(used_hours + after_hours, terms * t.term_hours) || (terms == 1 && after_hours == 0)) &&
                        after_hours < t.term_hours * (1 + 1e-9) + 1e-9),
                   "a commitment's hours are counted once, in whole terms");
    out->cost_usd.part[kPartUnusedCommitment] += unused;
    gpu_usd += unused;
  }
  GPUCOST_ASSERT(!in_range || AmountOk(gpu_usd), "a pool's GPU money is a number >= 0");
  out->gpu_usd += gpu_usd;
  out->taxable_usd += gpu_usd * t.taxable_fraction;
}

void AddService(const BillingTerms& t, int part, double entered_usd, JobBill* out) {
  GPUCOST_ASSERT(AmountOk(entered_usd), "a service's money is a number >= 0");
  const double pretax = entered_usd / t.services_tax_divisor;
  out->cost_usd.part[part] += pretax;
  out->taxable_usd += pretax;
}

void FinishBill(const BillingTerms& t, double stored_gb, double hours, JobBill* out) {
  double* m = out->cost_usd.part;
  const double storage = stored_gb * t.usd_per_gb_month * (hours + t.retention_hours) / kHoursPerMonth;
  m[kPartStorage] += storage;  // after any service stored alongside (scratch: operations.h)
  m[kPartEgress] += t.egress_usd;
  m[kPartFees] += t.fees_usd;
  out->taxable_usd += storage + t.egress_usd + t.fees_usd;
  out->vat_usd = out->taxable_usd * t.tax_rate;
  m[kPartTax] = t.vat_recoverable ? 0 : out->vat_usd;
  out->billed_gpu_hours = out->gpu_hours.Total();
  out->usd = out->cost_usd.Total();
  // The bill's identities, each from quantities kept apart from the parts: GPU money = the GPU-time parts; the tax
  // base = the taxable share of the GPU money + every service; the tax once, on that base; the total = GPU money +
  // services + tax; every part finite and >= 0.
  // Checks only from here (nothing to do when they are off); an overflow is refused at the edge.
  if (!std::isfinite(hours) || !std::isfinite(out->gpu_usd) || !AssertsOn()) return;
  double services = 0, gpu_parts = 0;
  for (int p = 0; p < kPartCount; ++p) {
    GPUCOST_ASSERT(AmountOk(m[p]), "every money part of a bill is a number >= 0");
    if (p == kPartTax || p == kPartDelay) continue;
    const bool service = p == kPartStorage || p == kPartEgress || p == kPartFees || p == kPartSupport || p == kPartRouter;
    (service ? services : gpu_parts) += m[p];
  }
  GPUCOST_ASSERT(ApproxEqual(gpu_parts, out->gpu_usd), "the GPU-time parts add up to the GPU money billed");
  GPUCOST_ASSERT(ApproxEqual(out->taxable_usd, out->gpu_usd * t.taxable_fraction + services) || t.taxable_fraction != 1,
                 "the tax base is the GPU money and every service, once");
  GPUCOST_ASSERT(out->taxable_usd <= out->gpu_usd + services + 1e-9 * (1 + out->gpu_usd + services),
                 "no money is taxed twice");
  GPUCOST_ASSERT(ApproxEqual(out->vat_usd, out->taxable_usd * t.tax_rate) && (t.vat_recoverable ? m[kPartTax] == 0 : m[kPartTax] == out->vat_usd),
                 "tax = rate x the tax base, paid unless recovered");
  GPUCOST_ASSERT(ApproxEqual(out->usd, out->gpu_usd + services + m[kPartTax] + m[kPartDelay]),
                 "the total is GPU money + services + tax");
  GPUCOST_ASSERT(AmountOk(out->billed_gpu_hours), "billed GPU-hours are a number >= 0");
}

[[gnu::noinline]] void NoteCommitmentRenewal(const BillingTerms& t, const JobBill& bill, double work_hours,
                                             const char* currency, double per_usd, Warnings* warnings) {
  if (!warnings || !(bill.commitment_terms > 1) || !std::isfinite(bill.commitment_terms)) return;
  // Money as written in every language (documents are the same bytes in every language).
  const double after = bill.commitment_after_job_usd * per_usd;
  const std::string money = std::strcmp(currency, "KRW") == 0 ? FormatKrwGrouped(std::round(after)) : FormatUsd(after);
  warnings->Add("commitment_renewed", "msg.w_commitment_renewed",
                {FormatParam("%.0f", work_hours), FormatParam("%.3g", t.term_hours / kHoursPerMonth),
                 FormatParam("%.0f", bill.commitment_terms), FormatParam("%.0f", bill.commitment_after_job_hours), money});
}

[[gnu::noinline]] void BillStopped(const BillingTerms& t, double gpus, JobBill* out) {
  if (!t.stopped_billed || !(t.stopped_hours > 0) || !(gpus > 0)) return;
  const double h = t.stopped_hours;
  const double at_fraction = t.stopped_discount_hours > 0 ? std::min(h, t.stopped_discount_hours) : h;
  const double usd = gpus * t.price_pretax * (t.stopped_price_fraction * at_fraction + (h - at_fraction));
  out->gpu_hours.part[kPartStopped] += gpus * h;
  out->cost_usd.part[kPartStopped] += usd;
  const double tax = usd * t.taxable_fraction * t.tax_rate;
  out->vat_usd += tax;
  if (!t.vat_recoverable) out->cost_usd.part[kPartTax] += tax;
  out->stopped_usd += usd + (t.vat_recoverable ? 0 : tax);
  out->gpu_usd += usd;
  out->taxable_usd += usd * t.taxable_fraction;
  out->billed_gpu_hours = out->gpu_hours.Total();
  out->usd = out->cost_usd.Total();
}

}  // namespace gpucost
