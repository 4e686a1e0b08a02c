// SAXPY over 16M floats, a 256x256 matmul and an ALU-heavy loop kernel.
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
#include "shaders/matmul.comp.h"
#include "shaders/saxpy.comp.h"
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

template <typename T>
std::unique_ptr<BenchWorkload> Make(BenchDevice& device, bool) {
  return std::make_unique<T>(device);
}

std::unique_ptr<BenchWorkload> MakeAluLoop(BenchDevice& device, bool quick) {
  return std::make_unique<AluLoop>(device, quick ? kAluQuickIterations : kAluIterations);
}

constexpr ComputeWorkloadInfo kWorkloads[] = {
    {"saxpy", "SAXPY z = a*x + y, 16M floats", kSaxpyCount, Make<Saxpy>},
    {"matmul", "matmul 256x256 (naive loop over k)", uint64_t(kMatmulN) * kMatmulN, Make<Matmul>},
    {"alu_loop", "ALU loop 256x fma/sin/mix, 1M inv.", kAluInvocations, MakeAluLoop},
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
