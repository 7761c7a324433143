// rng.h — a portable random number generator and the sampling the Monte Carlo needs, bit-identical on every
// platform (native GCC/glibc and WebAssembly/musl alike).
//
// Why not <random>: its distributions (std::exponential_distribution, std::weibull_distribution, even
// std::uniform_real_distribution) are implementation-defined and differ between libstdc++ and libc++; and
// std::log/std::exp may differ in the last bit between C libraries (glibc picks FMA variants at run time).
// Everything here uses only IEEE-754 +, -, *, /, floor and integer bit operations, which are exact and
// identical everywhere (the build uses no -ffast-math, and neither x86-64 baseline nor WebAssembly fuses
// multiply-adds).
//
//   Generator: xoshiro256** 1.0 (Blackman & Vigna, "Scrambled linear pseudorandom number generators",
//              ACM TOMS 47(4), 2021; prng.di.unimi.it), seeded through splitmix64 as its authors recommend.
//   Uniform:   53 random bits -> (k + 0.5) / 2^53, strictly inside (0, 1), so log() is always finite.
#pragma once
#include <cstdint>
#include <cstring>

namespace gpucost {

// splitmix64 (Steele, Lea & Flood 2014): expands one 64-bit seed into a well-mixed state.
inline std::uint64_t SplitMix64(std::uint64_t* x) {
  std::uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed = 0) { Seed(seed); }
  void Seed(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (std::uint64_t& word : s_) word = SplitMix64(&x);
  }
  // Sets the raw state (tests against the reference implementation). Must not be all zero.
  void SetState(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t d) {
    s_[0] = a, s_[1] = b, s_[2] = c, s_[3] = d;
  }

  // Always inlined (here and below): in the build's large unity translation units the compiler's growth limits
  // otherwise leave these calls out of line, and the Monte Carlo's generator then lives in memory.
  [[gnu::always_inline]] std::uint64_t Next() {  // xoshiro256**
    const std::uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform in (0, 1), never 0 or 1.
  // (53 bits convert as a signed integer: one instruction, where an unsigned 64-bit one takes several.)
  [[gnu::always_inline]] double Uniform() {
    return (static_cast<double>(static_cast<std::int64_t>(Next() >> 11)) + 0.5) * 0x1.0p-53;
  }

 private:
  static std::uint64_t Rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

// ---- Portable elementary functions (about 1 ulp; identical bits everywhere) ----

constexpr double kLn2Hi = 6.93147180369123816490e-01;  // ln 2 split so that e * kLn2Hi is exact (fdlibm)
constexpr double kLn2Lo = 1.90821492927058770002e-10;

// Natural logarithm of a positive, normal, finite x (callers guarantee it).
inline double PortableLog(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  int e = static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;  // mantissa m in [1, 2)
  double m;
  std::memcpy(&m, &bits, sizeof m);
  if (m > 1.4142135623730951) {  // m in [sqrt(1/2), sqrt(2)): |s| <= 0.1716 below
    m *= 0.5;
    ++e;
  }
  // log m = 2 atanh(s) = 2s + s R(z), s = (m - 1) / (m + 1), z = s^2 <= 0.0295: R is fdlibm's minimax
  // polynomial for this range (e_log.c, Lg1..Lg7; |error| < 2^-58.45), seven terms where the Taylor series of
  // 2 atanh needs twelve (issue 29: the Monte Carlo draws one logarithm per failure).
  const double s = (m - 1) / (m + 1), z = s * s;
  const double r = z * (6.666666666666735130e-01 + z * (3.999999999940941908e-01 + z * (2.857142874366239149e-01 +
                   z * (2.222219843214978396e-01 + z * (1.818357216161805012e-01 + z * (1.531383769920937332e-01 +
                   z * 1.479819860511658591e-01))))));
  const double de = static_cast<double>(e);
  return de * kLn2Hi + (de * kLn2Lo + (2 * s + s * r));
}

// e^x for x in about [-700, 700]; beyond, 0 or a huge finite value (never inf or NaN).
inline double PortableExp(double x) {
  if (x < -700) return 0;
  if (x > 700) x = 700;
  const double n = static_cast<double>(static_cast<long long>(x * 1.4426950408889634 + (x < 0 ? -0.5 : 0.5)));
  const double r = (x - n * kLn2Hi) - n * kLn2Lo;  // |r| <= 0.35
  // Taylor series to r^14/14! (< 5e-18 for |r| <= 0.35), Horner form.
  double p = 1.0 / 87178291200;  // 1/14!
  const double inv_fact[] = {1.0 / 6227020800, 1.0 / 479001600, 1.0 / 39916800, 1.0 / 3628800,
                             1.0 / 362880,     1.0 / 40320,     1.0 / 5040,     1.0 / 720,
                             1.0 / 120,        1.0 / 24,        1.0 / 6,        0.5,
                             1.0,              1.0};
  for (double c : inv_fact) p = p * r + c;
  // Scale by 2^n in two steps so that n down to -1010 stays normal-or-graceful.
  const long long k = static_cast<long long>(n);
  const long long k1 = k / 2, k2 = k - k1;
  auto pow2 = [](long long e) {
    const std::uint64_t b = static_cast<std::uint64_t>(e + 1023) << 52;
    double v;
    std::memcpy(&v, &b, sizeof v);
    return v;
  };
  return p * pow2(k1) * pow2(k2);
}

// x^y for x > 0.
inline double PortablePow(double x, double y) { return PortableExp(y * PortableLog(x)); }

// Gamma function for z in [1, 40] (Lanczos, g = 7, n = 9; relative error ~1e-15).
inline double PortableGamma(double z) {
  static constexpr double kCoef[] = {0.99999999999980993,  676.5203681218851,     -1259.1392167224028,
                                     771.32342877765313,   -176.61502916214059,   12.507343278686905,
                                     -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7};
  const double x = z - 1;
  double a = kCoef[0];
  const double t = x + 7.5;
  for (int i = 1; i < 9; ++i) a += kCoef[i] / (x + i);
  return 2.5066282746310002 * PortablePow(t, x + 0.5) * PortableExp(-t) * a;
}

// The ziggurat for the unit exponential (Marsaglia & Tsang 2000, "The Ziggurat Method for Generating Random
// Variables", J. Stat. Softw. 5(8), REXP with 256 levels, de = 7.697117470131487, ve = 3.949659822581572e-3),
// with 53-bit integers: 98.9% of draws cost a table look-up and a multiply, no logarithm (issue 29: the Monte
// Carlo's hot path). The tables are built once with the portable functions, so draws stay bit-identical
// natively and in WebAssembly.
struct ExpZiggurat {
  double k[256], w[256], f[256];
  ExpZiggurat() {
    const double m = 9007199254740992.0;  // 2^53
    double de = 7.697117470131487, tde = de;
    const double ve = 3.949659822581572e-3;
    const double q = ve / PortableExp(-de);
    k[0] = (de / q) * m;
    k[1] = 0;
    w[0] = q / m;
    w[255] = de / m;
    f[0] = 1;
    f[255] = PortableExp(-de);
    for (int i = 254; i >= 1; --i) {
      de = -PortableLog(ve / de + PortableExp(-de));
      k[i + 1] = (de / tde) * m;
      tde = de;
      f[i] = PortableExp(-de);
      w[i] = de / m;
    }
  }
};
inline const ExpZiggurat& ExpTables() {
  static const ExpZiggurat tables;
  return tables;
}
// The draws beyond the rectangles (1.1%): the rest of the ziggurat's loop after a first draw u that fell outside.
// The generator passes in and out by value, so that a caller's generator is never address-taken and can stay in
// registers (the Monte Carlo's event loop, issue 50).
struct ExpDraw {
  double x;
  Rng rng;
};
[[gnu::noinline]] inline ExpDraw ExpBeyondRectangle(Rng rng, std::uint64_t u) {
  const ExpZiggurat& z = ExpTables();
  for (;;) {
    const int i = static_cast<int>(u & 255);
    const double x = static_cast<double>(u >> 11) * z.w[i];
    if (i == 0) return {7.697117470131487 - PortableLog(rng.Uniform()), rng};  // the tail beyond the base strip
    if (z.f[i] + rng.Uniform() * (z.f[i - 1] - z.f[i]) < PortableExp(-x)) return {x, rng};  // the wedge
    u = rng.Next();
    const double j = static_cast<double>(u >> 11);  // 53 random bits (independent of the level's 8)
    if (j < z.k[u & 255]) return {j * z.w[u & 255], rng};  // inside the rectangle
  }
}
// With the tables at hand (a caller in a loop skips the static's guard).
[[gnu::always_inline]] inline double SampleUnitExponential(Rng& rng, const ExpZiggurat& z) {
  const std::uint64_t u = rng.Next();
  const int i = static_cast<int>(u & 255);
  const double j = static_cast<double>(u >> 11);  // 53 random bits (independent of the level's 8)
  if (j < z.k[i]) return j * z.w[i];              // inside the rectangle
  const ExpDraw d = ExpBeyondRectangle(rng, u);
  rng = d.rng;
  return d.x;
}
[[gnu::always_inline]] inline double SampleUnitExponential(Rng& rng) { return SampleUnitExponential(rng, ExpTables()); }

[[gnu::always_inline]] inline double SampleExponential(Rng& rng, double mean) { return mean * SampleUnitExponential(rng); }

// Weibull with shape k and scale eta: eta (-ln U)^(1/k).
inline double SampleWeibull(Rng& rng, double shape, double scale) {
  return scale * PortablePow(-PortableLog(rng.Uniform()), 1 / shape);
}

// The Weibull scale that gives the mean: mean / Gamma(1 + 1/k).
inline double WeibullScaleForMean(double mean, double shape) { return mean / PortableGamma(1 + 1 / shape); }

}  // namespace gpucost
