// SAXPY over 16M floats, a 256x256 matmul, an ALU-heavy loop kernel, 64-bit
// integer hashing and subgroup prefix sums.
// Inputs are chosen so that SAXPY and the matmul are exact in float under
// any evaluation order (small integers and quarters), so their results
// are compared for equality; the ALU loop is compared with a C++
// reference within the error bound the Vulkan spec allows (see
// alu_loop.comp).
#include "compute_workloads.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <cstdint>
#include <cstdio>

#include "compute_kernel.h"
#include "shaders/alu_loop.comp.h"
#include "shaders/fp16_poly.comp.h"
#include "shaders/fp64_poly.comp.h"
#include "shaders/bit_ops.comp.h"
#include "shaders/int64_hash.comp.h"
#include "shaders/inverse_trig.comp.h"
#include "shaders/matmul.comp.h"
#include "shaders/saxpy.comp.h"
#include "shaders/subgroup_scan.comp.h"
#include "vk_bench_device.h"

namespace duet_bench {
namespace {

constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;

constexpr uint32_t kSaxpyCount = 16u << 20;        // 16M floats
constexpr uint32_t kSaxpyGroupSize = 64;           // saxpy.comp's local_size_x
constexpr uint32_t kSaxpyGroupsX = 4096;           // 2D dispatch: 4096 x 64 groups of 64
constexpr uint32_t kSaxpyGroupsY = kSaxpyCount / (kSaxpyGroupsX * kSaxpyGroupSize);
constexpr float kSaxpyA = 2.5f;

constexpr uint32_t kMatmulN = 256;
constexpr uint32_t kMatmulGroup = 16;  // matmul.comp's local size, in x and y

constexpr uint32_t kAluInvocations = 1u << 20;
constexpr uint32_t kAluGroupSize = 64;  // alu_loop.comp's local_size_x
constexpr uint32_t kAluIterations = 256;
constexpr uint32_t kAluQuickIterations = 32;  // --quick: the same dispatch, an eighth of the loop
constexpr uint32_t kAluDistinct = 4096;  // alu_loop.comp's id & 4095
// Worst case of alu_loop.comp's result under the spec's sin error (2^-11
// absolute on [-pi, pi]) and rounding: each round's error e' <= 0.95 e +
// 0.5 * 2^-11 stays below 10 * 2^-11 ~ 0.0049, and acc adds half of it
// 256 times: 0.63, rounded up.
constexpr float kAluTolerance = 0.7f;

const float kSentinel = std::numeric_limits<float>::quiet_NaN();

void FillSentinel(const MappedBuffer& b) {
  float* p = reinterpret_cast<float*>(b.data);
  std::fill(p, p + b.size / sizeof(float), kSentinel);
}

[[noreturn]] void Mismatch(const char* what, uint64_t index, float got, float want) {
  char text[192];
  std::snprintf(text, sizeof text, "wrong result: %s[%llu] = %.9g, expected %.9g", what,
                static_cast<unsigned long long>(index), double(got), double(want));
  throw BenchFailure(text);
}

class ComputeWorkload : public BenchWorkload {
 public:
  void RecordBetween(VkCommandBuffer cb) override { RecordComputeBarrier(cb); }
};

// ---- SAXPY: z = a * x + y ----

float SaxpyX(uint32_t i) { return float(i % 1024) * 0.25f; }
float SaxpyY(uint32_t i) { return float(i % 777); }

class Saxpy final : public ComputeWorkload {
 public:
  explicit Saxpy(BenchDevice& device)
      : x_(device.CreateBuffer(uint64_t(kSaxpyCount) * 4, kStorage)),
        y_(device.CreateBuffer(uint64_t(kSaxpyCount) * 4, kStorage)),
        z_(device.CreateBuffer(uint64_t(kSaxpyCount) * 4, kStorage)),
        kernel_(device, kSaxpyComp, std::array{x_.buffer, y_.buffer, z_.buffer}, sizeof(Push)) {
    float* x = reinterpret_cast<float*>(x_.data);
    float* y = reinterpret_cast<float*>(y_.data);
    for (uint32_t i = 0; i < kSaxpyCount; ++i) {
      x[i] = SaxpyX(i);
      y[i] = SaxpyY(i);
    }
    FillSentinel(z_);
  }
  void RecordOnce(VkCommandBuffer cb) override {
    const Push push{kSaxpyA, kSaxpyCount};
    kernel_.RecordDispatch(cb, &push, kSaxpyGroupsX, kSaxpyGroupsY);
  }
  void Verify(BenchDevice&) override {
    const float* z = reinterpret_cast<const float*>(z_.data);
    for (uint32_t i = 0; i < kSaxpyCount; ++i) {
      const float want = kSaxpyA * SaxpyX(i) + SaxpyY(i);  // exact
      if (!(z[i] == want)) Mismatch("z", i, z[i], want);
    }
  }

 private:
  struct Push {
    float a;
    uint32_t n;
  };
  MappedBuffer x_, y_, z_;
  ComputeKernel kernel_;
};

// ---- matmul: C = A * B, 256 x 256 ----

float MatA(uint32_t row, uint32_t k) { return float(int((row * 7 + k * 3) % 5) - 2); }
float MatB(uint32_t k, uint32_t col) { return float(int((k * 5 + col * 11 + k * col) % 5) - 2); }

class Matmul final : public ComputeWorkload {
 public:
  explicit Matmul(BenchDevice& device)
      : a_(device.CreateBuffer(uint64_t(kMatmulN) * kMatmulN * 4, kStorage)),
        b_(device.CreateBuffer(uint64_t(kMatmulN) * kMatmulN * 4, kStorage)),
        c_(device.CreateBuffer(uint64_t(kMatmulN) * kMatmulN * 4, kStorage)),
        kernel_(device, kMatmulComp, std::array{a_.buffer, b_.buffer, c_.buffer}, sizeof(uint32_t)) {
    float* a = reinterpret_cast<float*>(a_.data);
    float* b = reinterpret_cast<float*>(b_.data);
    for (uint32_t r = 0; r < kMatmulN; ++r)
      for (uint32_t c = 0; c < kMatmulN; ++c) {
        a[r * kMatmulN + c] = MatA(r, c);
        b[r * kMatmulN + c] = MatB(r, c);
      }
    FillSentinel(c_);
  }
  void RecordOnce(VkCommandBuffer cb) override {
    const uint32_t n = kMatmulN;
    kernel_.RecordDispatch(cb, &n, kMatmulN / kMatmulGroup, kMatmulN / kMatmulGroup);
  }
  void Verify(BenchDevice&) override {
    const float* c = reinterpret_cast<const float*>(c_.data);
    for (uint32_t r = 0; r < kMatmulN; ++r)
      for (uint32_t col = 0; col < kMatmulN; ++col) {
        int sum = 0;  // |sum| <= 256 * 4: exact in float whatever the order
        for (uint32_t k = 0; k < kMatmulN; ++k) sum += int(MatA(r, k)) * int(MatB(k, col));
        const float got = c[r * kMatmulN + col];
        if (!(got == float(sum))) Mismatch("C", uint64_t(r) * kMatmulN + col, got, float(sum));
      }
  }

 private:
  MappedBuffer a_, b_, c_;
  ComputeKernel kernel_;
};

// ---- ALU loop ----

// alu_loop.comp for one invocation, in float.
float AluLoopReference(uint32_t id, uint32_t iterations) {
  const float s = float(id & (kAluDistinct - 1)) * (0.5f / 4096.0f) - 0.25f;
  float x = s * 4.0f;
  float acc = 0.0f;
  for (uint32_t i = 0; i < iterations; ++i) {
    const float t = std::fma(x, 0.9f, float(i & 15u) * 0.1f - 0.75f + s);
    x = x * 0.5f + std::sin(t) * 0.5f;
    acc = std::fma(x, 0.5f, acc);
  }
  return acc + x;
}

class AluLoop final : public ComputeWorkload {
 public:
  AluLoop(BenchDevice& device, uint32_t iterations)
      : iterations_(iterations),
        out_(device.CreateBuffer(uint64_t(kAluInvocations) * 4, kStorage)),
        kernel_(device, kAluLoopComp, std::array{out_.buffer}, sizeof(uint32_t)) {
    FillSentinel(out_);
    for (uint32_t id = 0; id < kAluDistinct; ++id) reference_[id] = AluLoopReference(id, iterations_);
  }
  void RecordOnce(VkCommandBuffer cb) override {
    kernel_.RecordDispatch(cb, &iterations_, kAluInvocations / kAluGroupSize);
  }
  void Verify(BenchDevice&) override {
    const float* out = reinterpret_cast<const float*>(out_.data);
    for (uint32_t id = 0; id < kAluInvocations; ++id) {
      const float want = reference_[id & (kAluDistinct - 1)];
      if (!(std::fabs(out[id] - want) <= kAluTolerance)) Mismatch("result", id, out[id], want);
    }
  }

 private:
  uint32_t iterations_;
  MappedBuffer out_;
  ComputeKernel kernel_;
  std::array<float, kAluDistinct> reference_{};
};

// ---- 64-bit integer hashing: splitmix64 rounds ----

constexpr uint32_t kHashInvocations = 1u << 20;
constexpr uint32_t kHashRounds = 64, kHashQuickRounds = 8;

uint64_t HashReference(uint64_t x, uint32_t rounds) {
  uint64_t h = 0;
  for (uint32_t i = 0; i < rounds; ++i) {
    x += 0x9E3779B97F4A7C15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    h ^= z ^ (z >> 31);
  }
  return h;
}

class Int64Hash final : public ComputeWorkload {
 public:
  Int64Hash(BenchDevice& device, uint32_t rounds)
      : rounds_(rounds),
        out_((device.shader_int64_enabled() ? void() : throw BenchFailure("shaderInt64 is not supported"),
              device.CreateBuffer(uint64_t(kHashInvocations) * 8, kStorage))),
        kernel_(device, kInt64HashComp, std::array{out_.buffer}, sizeof(uint32_t)) {
    std::memset(out_.data, 0xAB, out_.size);
  }
  void RecordOnce(VkCommandBuffer cb) override { kernel_.RecordDispatch(cb, &rounds_, kHashInvocations / 64); }
  void Verify(BenchDevice&) override {
    const uint64_t* out = reinterpret_cast<const uint64_t*>(out_.data);
    for (uint32_t id = 0; id < kHashInvocations; id += 997) {
      const uint64_t want = HashReference(id, rounds_);
      if (out[id] != want) {
        char text[128];
        std::snprintf(text, sizeof text, "wrong result: hash[%u] = %llx, expected %llx", id,
                      static_cast<unsigned long long>(out[id]), static_cast<unsigned long long>(want));
        throw BenchFailure(text);
      }
    }
  }

 private:
  uint32_t rounds_;
  MappedBuffer out_;
  ComputeKernel kernel_;
};

// ---- Inverse trigonometric and hyperbolic functions ----

constexpr uint32_t kTrigInvocations = 1u << 20;
constexpr uint32_t kTrigRounds = 32, kTrigQuickRounds = 4;

float InverseTrigReference(uint32_t id, uint32_t rounds) {
  float px = (float(id & 1023u) - 511.5f) * (1.0f / 512.0f), py = (float(id >> 10) - 511.5f) * (1.0f / 512.0f);
  double acc = 0.0;
  for (uint32_t i = 0; i < rounds; ++i) {
    const double angle = std::atan2(double(py), double(px));
    const double length = std::sqrt(double(px) * px + double(py) * py);
    const double between = std::acos(std::clamp((px * 0.6 + py * 0.8) / length, -1.0, 1.0));
    acc += std::tanh(angle - between) + std::asin(std::clamp(double(px) * py * 4.0, -1.0, 1.0));
    const float x = px, y = py;
    px = y * 0.99f + 0.003f;
    py = -x * 0.99f - 0.002f;
  }
  return float(acc);
}

class InverseTrig final : public ComputeWorkload {
 public:
  InverseTrig(BenchDevice& device, uint32_t rounds)
      : rounds_(rounds),
        out_(device.CreateBuffer(uint64_t(kTrigInvocations) * 4, kStorage)),
        kernel_(device, kInverseTrigComp, std::array{out_.buffer}, sizeof(uint32_t)) {
    std::memset(out_.data, 0xFF, out_.size);  // NaNs
  }
  void RecordOnce(VkCommandBuffer cb) override { kernel_.RecordDispatch(cb, &rounds_, kTrigInvocations / 64); }
  void Verify(BenchDevice&) override {
    const auto* out = reinterpret_cast<const float*>(out_.data);
    for (uint32_t id = 0; id < kTrigInvocations; id += 101) {
      // Float arithmetic (and acos near 1, which magnifies it) against a
      // double reference: close, not equal.
      const float want = InverseTrigReference(id, rounds_);
      if (!(std::fabs(out[id] - want) <= 1e-2f + 1e-3f * std::fabs(want))) Mismatch("result", id, out[id], want);
    }
  }

 private:
  uint32_t rounds_;
  MappedBuffer out_;
  ComputeKernel kernel_;
};

// ---- Integer bit manipulation ----

constexpr uint32_t kBitInvocations = 1u << 20;
constexpr uint32_t kBitRounds = 64, kBitQuickRounds = 8;

uint32_t BitOpsReference(uint32_t id, uint32_t rounds) {
  auto rotl = [](uint32_t x, uint32_t k) { return (x << k) | (x >> (32u - k)); };
  auto reverse = [](uint32_t v) {
    uint32_t r = 0;
    for (int b = 0; b < 32; ++b) r |= ((v >> b) & 1u) << (31 - b);
    return r;
  };
  uint32_t x = id * 0x9E3779B9u + 1u, y = 0x85EBCA6Bu, z = 0u;
  for (uint32_t i = 0; i < rounds; ++i) {
    x = rotl(x, 7u) ^ reverse(y);
    y += uint32_t(__builtin_popcount(x)) * 0x27D4EB2Du + i;
    const uint32_t field = (x >> (y & 15u)) & 0xFFu;
    const uint32_t offset = (i & 7u) * 3u;
    z = (z & ~(0xFFu << offset)) | (field << offset);
    x ^= uint32_t(31 - __builtin_clz(x | 1u)) << 11 | uint32_t(__builtin_ctz(y | 0x80000000u)) << 3;
  }
  return x ^ y ^ z;
}

class BitOps final : public ComputeWorkload {
 public:
  BitOps(BenchDevice& device, uint32_t rounds)
      : rounds_(rounds),
        out_(device.CreateBuffer(uint64_t(kBitInvocations) * 4, kStorage)),
        kernel_(device, kBitOpsComp, std::array{out_.buffer}, sizeof(uint32_t)) {
    std::memset(out_.data, 0xAB, out_.size);
  }
  void RecordOnce(VkCommandBuffer cb) override { kernel_.RecordDispatch(cb, &rounds_, kBitInvocations / 64); }
  void Verify(BenchDevice&) override {
    const uint32_t* out = reinterpret_cast<const uint32_t*>(out_.data);
    for (uint32_t id = 0; id < kBitInvocations; id += 997) {
      const uint32_t want = BitOpsReference(id, rounds_);
      if (out[id] != want) {
        char text[128];
        std::snprintf(text, sizeof text, "wrong result: bits[%u] = %08x, expected %08x", id, out[id], want);
        throw BenchFailure(text);
      }
    }
  }

 private:
  uint32_t rounds_;
  MappedBuffer out_;
  ComputeKernel kernel_;
};

// ---- Half-precision polynomial rounds ----

constexpr uint32_t kHalfInvocations = 1u << 20;
constexpr uint32_t kHalfRounds = 64, kHalfQuickRounds = 8;

// The shader's arithmetic with each operation rounded to half (GCC's
// _Float16); a driver may contract a multiply and add, hence a tolerance.
float HalfPolyReference(uint32_t id, uint32_t component, uint32_t rounds) {
  using Half = _Float16;
  Half x = Half(Half(float(id & 255u)) * Half(0.00390625f)) + Half(0.25f * float(component));
  Half acc = Half(0.0f);
  for (uint32_t i = 0; i < rounds; ++i) {
    const Half square = Half(x * x) * Half(0.5f);
    Half next = Half(Half(square - Half(x * Half(0.25f))) + Half(0.375f));
    x = next < Half(0.0f) ? Half(0.0f) : next > Half(1.0f) ? Half(1.0f) : next;
    acc = Half(acc + Half(x * Half(0.0625f)));
  }
  return float(acc);
}

class HalfPoly final : public ComputeWorkload {
 public:
  HalfPoly(BenchDevice& device, uint32_t rounds)
      : rounds_(rounds),
        out_((device.shader_float16_enabled() ? void()
                                              : throw BenchFailure("shaderFloat16 or 16-bit storage is not supported"),
              device.CreateBuffer(uint64_t(kHalfInvocations) * 8, kStorage))),
        kernel_(device, kFp16PolyComp, std::array{out_.buffer}, sizeof(uint32_t)) {
    std::memset(out_.data, 0xFF, out_.size);  // NaNs
  }
  void RecordOnce(VkCommandBuffer cb) override { kernel_.RecordDispatch(cb, &rounds_, kHalfInvocations / 64); }
  void Verify(BenchDevice&) override {
    const auto* out = reinterpret_cast<const _Float16*>(out_.data);
    for (uint32_t id = 0; id < kHalfInvocations; id += 211) {
      for (uint32_t c = 0; c < 4; ++c) {
        const float got = float(out[4 * id + c]), want = HalfPolyReference(id, c, rounds_);
        if (!(std::fabs(got - want) <= 0.01f * std::fabs(want) + 0.002f)) Mismatch("result", 4 * id + c, got, want);
      }
    }
  }

 private:
  uint32_t rounds_;
  MappedBuffer out_;
  ComputeKernel kernel_;
};

// ---- Double-precision polynomial rounds ----

constexpr uint32_t kDoubleInvocations = 1u << 20;
constexpr uint32_t kDoubleRounds = 64, kDoubleQuickRounds = 8;

double DoublePolyReference(uint32_t id, uint32_t component, uint32_t rounds) {
  double x = component == 0 ? double(id & 1023u) / 1024.0 : double((id * 7u) & 1023u) / 1024.0;
  double acc = 0.0;
  for (uint32_t i = 0; i < rounds; ++i) {
    x = std::min(std::max(x * x * 0.5 - x * 0.25 + 0.375, 0.0), 1.0);
    acc += std::sqrt(x) * 0.0625;
  }
  return acc;
}

class DoublePoly final : public ComputeWorkload {
 public:
  DoublePoly(BenchDevice& device, uint32_t rounds)
      : rounds_(rounds),
        out_((device.shader_float64_enabled() ? void() : throw BenchFailure("shaderFloat64 is not supported"),
              device.CreateBuffer(uint64_t(kDoubleInvocations) * 16, kStorage))),
        kernel_(device, kFp64PolyComp, std::array{out_.buffer}, sizeof(uint32_t)) {
    std::memset(out_.data, 0xFF, out_.size);  // NaNs
  }
  void RecordOnce(VkCommandBuffer cb) override { kernel_.RecordDispatch(cb, &rounds_, kDoubleInvocations / 64); }
  void Verify(BenchDevice&) override {
    const auto* out = reinterpret_cast<const double*>(out_.data);
    for (uint32_t id = 0; id < kDoubleInvocations; id += 211) {
      for (uint32_t c = 0; c < 2; ++c) {
        // A driver may contract a multiply and an add: close, not equal.
        const double got = out[2 * id + c], want = DoublePolyReference(id, c, rounds_);
        if (!(std::fabs(got - want) <= 1e-12 * std::fabs(want) + 1e-12))
          Mismatch("result", 2 * id + c, float(got), float(want));
      }
    }
  }

 private:
  uint32_t rounds_;
  MappedBuffer out_;
  ComputeKernel kernel_;
};

// ---- Subgroup prefix sums over 16M uints ----

constexpr uint32_t kScanCount = 16u << 20;
constexpr uint32_t kScanGroupsX = 4096, kScanGroupsY = kScanCount / (kScanGroupsX * 64);

uint32_t ScanValue(uint32_t i) { return (i * 2654435761u) >> 28; }  // 0..15

uint32_t SubgroupSizeOf(BenchDevice& device) {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(device.physical_device(), &properties);
  const VkSubgroupFeatureFlags needed = VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BASIC_BIT;
  if ((subgroup.supportedOperations & needed) != needed || !(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT))
    throw BenchFailure("no subgroup arithmetic in compute shaders");
  if (subgroup.subgroupSize == 0 || 64 % subgroup.subgroupSize != 0) throw BenchFailure("subgroup size not a divisor of 64");
  return subgroup.subgroupSize;
}

class SubgroupScan final : public ComputeWorkload {
 public:
  explicit SubgroupScan(BenchDevice& device)
      : subgroup_(SubgroupSizeOf(device)),
        in_(device.CreateBuffer(uint64_t(kScanCount) * 4, kStorage)),
        prefix_(device.CreateBuffer(uint64_t(kScanCount) * 4, kStorage)),
        totals_(device.CreateBuffer(uint64_t(kScanCount / subgroup_) * 4, kStorage)),
        kernel_(device, kSubgroupScanComp, std::array{in_.buffer, prefix_.buffer, totals_.buffer}, 0) {
    uint32_t* in = reinterpret_cast<uint32_t*>(in_.data);
    for (uint32_t i = 0; i < kScanCount; ++i) in[i] = ScanValue(i);
    std::memset(prefix_.data, 0xFF, prefix_.size);
  }
  void RecordOnce(VkCommandBuffer cb) override { kernel_.RecordDispatch(cb, nullptr, kScanGroupsX, kScanGroupsY); }
  void Verify(BenchDevice&) override {
    const uint32_t* prefix = reinterpret_cast<const uint32_t*>(prefix_.data);
    const uint32_t* totals = reinterpret_cast<const uint32_t*>(totals_.data);
    for (uint32_t s = 0; s < kScanCount / subgroup_; s += 101) {
      uint32_t sum = 0;
      for (uint32_t l = 0; l < subgroup_; ++l) {
        const uint32_t i = s * subgroup_ + l;
        sum += ScanValue(i);
        if (prefix[i] != sum) Mismatch("prefix", i, float(prefix[i]), float(sum));
      }
      if (totals[s] != sum) Mismatch("total", s, float(totals[s]), float(sum));
    }
  }

 private:
  uint32_t subgroup_;
  MappedBuffer in_, prefix_, totals_;
  ComputeKernel kernel_;
};

template <typename T>
std::unique_ptr<BenchWorkload> Make(BenchDevice& device, bool) {
  return std::make_unique<T>(device);
}

std::unique_ptr<BenchWorkload> MakeAluLoop(BenchDevice& device, bool quick) {
  return std::make_unique<AluLoop>(device, quick ? kAluQuickIterations : kAluIterations);
}

std::unique_ptr<BenchWorkload> MakeHalfPoly(BenchDevice& device, bool quick) {
  return std::make_unique<HalfPoly>(device, quick ? kHalfQuickRounds : kHalfRounds);
}

std::unique_ptr<BenchWorkload> MakeDoublePoly(BenchDevice& device, bool quick) {
  return std::make_unique<DoublePoly>(device, quick ? kDoubleQuickRounds : kDoubleRounds);
}

std::unique_ptr<BenchWorkload> MakeBitOps(BenchDevice& device, bool quick) {
  return std::make_unique<BitOps>(device, quick ? kBitQuickRounds : kBitRounds);
}

std::unique_ptr<BenchWorkload> MakeInverseTrig(BenchDevice& device, bool quick) {
  return std::make_unique<InverseTrig>(device, quick ? kTrigQuickRounds : kTrigRounds);
}

std::unique_ptr<BenchWorkload> MakeInt64Hash(BenchDevice& device, bool quick) {
  return std::make_unique<Int64Hash>(device, quick ? kHashQuickRounds : kHashRounds);
}

constexpr ComputeWorkloadInfo kWorkloads[] = {
    {"saxpy", "SAXPY z = a*x + y, 16M floats", kSaxpyCount, Make<Saxpy>},
    {"matmul", "matmul 256x256 (naive loop over k)", uint64_t(kMatmulN) * kMatmulN, Make<Matmul>},
    {"alu_loop", "ALU loop 256x fma/sin/mix, 1M inv.", kAluInvocations, MakeAluLoop},
    {"int64_hash", "int64 splitmix64 x64, 1M inv.", kHashInvocations, MakeInt64Hash},
    {"bit_ops", "bit manipulation x64, 1M inv.", kBitInvocations, MakeBitOps},
    {"inverse_trig", "atan2/acos/asin/tanh x32, 1M inv.", kTrigInvocations, MakeInverseTrig},
    {"fp16_poly", "fp16 f16vec4 polynomial x64, 1M inv.", kHalfInvocations, MakeHalfPoly},
    {"fp64_poly", "fp64 dvec2 polynomial+sqrt x64, 1M inv.", kDoubleInvocations, MakeDoublePoly},
    {"subgroup_scan", "subgroup prefix sums, 16M uints", kScanCount, Make<SubgroupScan>},
};

constexpr std::array<WorkloadName, std::size(kWorkloads)> MakeNames() {
  std::array<WorkloadName, std::size(kWorkloads)> names{};
  for (size_t i = 0; i < std::size(kWorkloads); ++i) names[i] = {kWorkloads[i].name, kWorkloads[i].label};
  return names;
}
constexpr auto kNames = MakeNames();

}  // namespace

std::span<const ComputeWorkloadInfo> ComputeWorkloads() { return kWorkloads; }
std::span<const WorkloadName> ComputeWorkloadNames() { return kNames; }

const ComputeWorkloadInfo* FindComputeWorkload(std::string_view name) {
  for (const ComputeWorkloadInfo& w : kWorkloads)
    if (w.name == name) return &w;
  return nullptr;
}

}  // namespace duet_bench
