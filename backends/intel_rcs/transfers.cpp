#include "backends/intel_rcs/transfers.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "backends/intel_rcs/batch.h"
#include "backends/intel_rcs/i915_channel.h"
#include "backends/intel_rcs/simulated_channel.h"
#include "backends/intel_rcs/stats.h"
#include "util/log.h"

namespace duet::intel_rcs {
namespace {

// A batch that has not finished after this long is taken for a hang, and
// abandoned (cancelled, waited for) before the CPU redoes the work: a late
// GPU write must not land after the CPU's.
constexpr uint64_t kHangTimeoutNs = 2'000'000'000;
// Copies up to this size, in whole dwords, are MI_COPY_MEM_MEM on the render
// engine.
constexpr uint64_t kMiCopyMaxBytes = 256;

// The shortest period (1, 2 or 4 bytes) `pattern` repeats with, or 0.
uint32_t PatternPeriod(std::span<const std::byte> pattern) {
  for (uint32_t period : {1u, 2u, 4u}) {
    if (pattern.size() % period != 0) continue;
    bool repeats = true;
    for (size_t i = period; i < pattern.size() && repeats; ++i) repeats = pattern[i] == pattern[i % period];
    if (repeats) return period;
  }
  return 0;
}

// Whether spans of the same allocation meet: the CPU path's memmove takes
// those (the blitter must not overlap its source and destination).
bool Meet(const HostPlace& dst, const HostPlace& src, uint64_t dst_bytes, uint64_t src_bytes) {
  return dst.memory.base == src.memory.base && dst.offset < src.offset + src_bytes &&
         src.offset < dst.offset + dst_bytes;
}

}  // namespace

IntelTransfers::IntelTransfers(std::unique_ptr<Channel> channel, uint64_t min_bytes)
    : channel_(std::move(channel)), min_bytes_(min_bytes) {}

IntelTransfers::~IntelTransfers() {
  for (auto& [base, wrapped] : wrapped_) Unwrap(&wrapped);
  if (batch_) channel_->Destroy(*batch_);
  if (status_) channel_->Destroy(*status_);
}

void IntelTransfers::Unwrap(Wrapped* wrapped) {
  for (const auto& [index, window] : wrapped->windows) channel_->Destroy(window);
  wrapped->windows.clear();
  if (!wrapped->refused) channel_->ReleaseAddresses(wrapped->gpu_base);
  wrapped->refused = true;
}

void IntelTransfers::TurnOff(const std::string& why) {
  if (enabled_.exchange(false)) DUET_WARN("intel_rcs: %s; fills and copies run on the CPU from now on", why.c_str());
}

std::optional<uint64_t> IntelTransfers::Reach(const HostPlace& place, uint64_t bytes,
                                              std::vector<BufferObject>* objects) {
  const HostMemory& memory = place.memory;
  if (bytes == 0 || place.offset > memory.length || bytes > memory.length - place.offset) return std::nullopt;
  auto [it, fresh] = wrapped_.try_emplace(memory.base);
  Wrapped& wrapped = it->second;
  if (fresh) {
    std::optional<uint64_t> base = channel_->ReserveAddresses(memory.length);
    if (base)
      wrapped.gpu_base = *base;
    else
      wrapped.refused = true;
  }
  if (wrapped.refused) return std::nullopt;
  for (uint64_t w = place.offset / kWindowBytes; w * kWindowBytes < place.offset + bytes; ++w) {
    auto window = wrapped.windows.find(w);
    if (window == wrapped.windows.end()) {
      const uint64_t start = w * kWindowBytes, size = std::min<uint64_t>(kWindowBytes, memory.length - start);
      std::optional<BufferObject> object = channel_->WrapHostPages(memory.base + start, size, wrapped.gpu_base + start);
      if (!object) {
        DUET_INFO("intel_rcs: memory at %p stays the CPU's: %s", static_cast<void*>(memory.base),
                  channel_->LastError().c_str());
        Unwrap(&wrapped);
        return std::nullopt;
      }
      window = wrapped.windows.emplace(w, *object).first;
    }
    const bool listed = std::any_of(objects->begin(), objects->end(),
                                    [&](const BufferObject& o) { return o.handle == window->second.handle; });
    if (!listed) objects->push_back(window->second);
  }
  return wrapped.gpu_base + place.offset;
}

void IntelTransfers::Forget(const std::byte* base) {
  std::lock_guard lock(mutex_);
  auto it = wrapped_.find(base);
  if (it == wrapped_.end()) return;
  Unwrap(&it->second);
  wrapped_.erase(it);
}

bool IntelTransfers::Run(Engine engine, Dwords packets, std::span<const BufferObject> objects, uint64_t bytes) {
  if (!enabled()) return false;  // turned off while this thread waited for the lock
  const uint32_t seqno = ++seqno_;
  const uint64_t seqno_offset = engine == Engine::kBlitter ? kBlitterSeqno : kRenderSeqno;
  BatchBuilder batch(channel_->Info().model.generation, engine, std::move(packets));
  batch.Finish(status_->gpu_address + seqno_offset, seqno);
  if (batch.bytes() > batch_->size) return false;  // too many packets: the CPU takes this one
  std::memcpy(batch_->cpu, batch.dwords().data(), batch.bytes());

  std::vector<BufferObject> used(objects.begin(), objects.end());
  used.push_back(*status_);
  std::optional<uint64_t> fence = channel_->Submit(*batch_, static_cast<uint32_t>(batch.bytes()), used, engine);
  if (!fence) {
    TurnOff("submission refused: " + channel_->LastError());
    return false;
  }
  WaitStatus status = channel_->Wait(*fence, kHangTimeoutNs);
  if (status == WaitStatus::kTimeout) {
    // The CPU redoes the move next: the batch must not write after it.
    if (!channel_->Abandon(*fence))
      DUET_ERROR("intel_rcs: a hung batch could not be cancelled; it may still write the memory it was given");
    TurnOff("a batch did not finish in 2 s (a GPU hang)");
    return false;
  }
  if (status == WaitStatus::kFailed) {
    TurnOff("a batch failed: " + channel_->LastError());
    return false;
  }
  uint32_t landed;
  std::memcpy(&landed, status_->cpu + seqno_offset, sizeof(landed));
  if (landed != seqno) {
    TurnOff("a batch completed without its post-sync write");
    return false;
  }
  CountBatch(bytes);
  return true;
}

bool IntelTransfers::RunMove(Engine engine, Dwords packets, std::span<const BufferObject> objects, uint64_t bytes) {
  if (Run(engine, std::move(packets), objects, bytes)) return true;
  CountFallback();
  return false;
}

bool IntelTransfers::SelfTest() {
  std::lock_guard lock(mutex_);
  batch_ = channel_->Create(kBatchBytes);
  status_ = channel_->Create(AddressSpace::kPage);
  if (!batch_ || !status_) {
    DUET_INFO("intel_rcs: cannot create the batch and status objects: %s", channel_->LastError().c_str());
    return false;
  }
  enabled_ = true;
  const Generation gen = channel_->Info().model.generation;
  std::byte* page = status_->cpu;
  const uint64_t gpu = status_->gpu_address;
  auto read = [&](uint64_t offset) {
    uint32_t v;
    std::memcpy(&v, page + offset, 4);
    return v;
  };
  auto fail = [&](const char* what) {
    TurnOff(std::string("self-test: ") + what);
    return false;
  };

  constexpr uint32_t kCookie = 0xD0E7C0DE;
  for (Engine engine : {Engine::kBlitter, Engine::kRender}) {
    const uint64_t at = engine == Engine::kBlitter ? kBlitterCookie : kRenderCookie;
    Dwords packets;
    EncodeMiStoreDwordImm(packets, gen, gpu + at, kCookie ^ static_cast<uint32_t>(at));
    if (!Run(engine, std::move(packets), {}, 4)) return false;
    if (read(at) != (kCookie ^ static_cast<uint32_t>(at))) return fail("a stored cookie did not come back");
  }

  // A fill and a copy through the planner, compared with the CPU's bytes.
  Dwords packets;
  if (!PlanFill(gen, gpu + kScratch, kScratchBytes / 2, 4, 0xA5C3F00D, &packets)) return fail("no fill plan");
  if (!Run(Engine::kBlitter, std::move(packets), {}, kScratchBytes / 2)) return false;
  for (uint64_t i = 0; i < kScratchBytes / 2; i += 4)
    if (read(kScratch + i) != 0xA5C3F00D) return fail("a fill wrote the wrong bytes");
  for (uint64_t i = 0; i < kScratchBytes / 2; ++i) page[kScratch + i] = std::byte(i * 7 + 3);
  packets.clear();
  if (!PlanCopy(gen, gpu + kScratch + kScratchBytes / 2 + 1, gpu + kScratch + 3, kScratchBytes / 2 - 5, &packets))
    return fail("no copy plan");
  if (!Run(Engine::kBlitter, std::move(packets), {}, kScratchBytes / 2 - 5)) return false;
  if (std::memcmp(page + kScratch + kScratchBytes / 2 + 1, page + kScratch + 3, kScratchBytes / 2 - 5) != 0)
    return fail("a copy wrote the wrong bytes");
  DUET_INFO("intel_rcs: %s (%s, %s, device 0x%04x) passed its self-test", channel_->Info().name,
            channel_->Info().model.platform, GenerationName(gen), channel_->Info().device_id);
  return true;
}

bool IntelTransfers::Fill(HostPlace dst, uint64_t bytes, std::span<const std::byte> pattern) {
  if (!Wanted(bytes)) return false;
  const uint32_t period = PatternPeriod(pattern);
  if (period == 0 || bytes % pattern.size() != 0) return false;
  uint32_t value = 0;
  std::memcpy(&value, pattern.data(), period);
  std::lock_guard lock(mutex_);
  std::vector<BufferObject> objects;
  std::optional<uint64_t> address = Reach(dst, bytes, &objects);
  if (!address) return false;
  Dwords packets;
  if (!PlanFill(channel_->Info().model.generation, *address, bytes, period, value, &packets)) return false;
  return RunMove(Engine::kBlitter, std::move(packets), objects, bytes);
}

bool IntelTransfers::Copy(HostPlace dst, HostPlace src, uint64_t bytes) {
  if (!Wanted(bytes)) return false;
  if (Meet(dst, src, bytes, bytes)) return false;
  std::lock_guard lock(mutex_);
  std::vector<BufferObject> objects;
  std::optional<uint64_t> d = Reach(dst, bytes, &objects), s = Reach(src, bytes, &objects);
  if (!d || !s) return false;
  const Generation gen = channel_->Info().model.generation;
  Dwords packets;
  Engine engine = Engine::kBlitter;
  if (bytes <= kMiCopyMaxBytes && bytes % 4 == 0 && *d % 4 == 0 && *s % 4 == 0) {
    engine = Engine::kRender;
    for (uint64_t i = 0; i < bytes; i += 4) EncodeMiCopyMemMem(packets, gen, *d + i, *s + i);
  } else if (!PlanCopy(gen, *d, *s, bytes, &packets)) {
    return false;
  }
  return RunMove(engine, std::move(packets), objects, bytes);
}

bool IntelTransfers::CopyRect(HostPlace dst, uint32_t dst_pitch, HostPlace src, uint32_t src_pitch, uint32_t row_bytes,
                              uint32_t rows) {
  const uint64_t bytes = uint64_t{row_bytes} * rows;
  if (!Wanted(bytes)) return false;
  const uint64_t dst_span = uint64_t{dst_pitch} * (rows - 1) + row_bytes;
  const uint64_t src_span = uint64_t{src_pitch} * (rows - 1) + row_bytes;
  if (Meet(dst, src, dst_span, src_span)) return false;
  std::lock_guard lock(mutex_);
  std::vector<BufferObject> objects;
  std::optional<uint64_t> d = Reach(dst, dst_span, &objects), s = Reach(src, src_span, &objects);
  if (!d || !s) return false;
  Dwords packets;
  const RectCopy copy{*d, *s, dst_pitch, src_pitch, row_bytes, rows};
  if (!PlanCopyRect(channel_->Info().model.generation, copy, &packets)) return false;
  return RunMove(Engine::kBlitter, std::move(packets), objects, bytes);
}

std::unique_ptr<IntelTransfers> OpenIntelTransfers() {
  static std::atomic<bool> no_gpu{false};
  const char* env = std::getenv("DUET_INTEL");
  const std::string mode = env != nullptr ? env : "auto";
  if (mode == "off") return nullptr;
  std::unique_ptr<Channel> channel;
  uint64_t min_bytes = 0;
  if (mode == "simulate") {
    const char* gen_env = std::getenv("DUET_INTEL_GEN");
    const int gen = gen_env != nullptr ? std::atoi(gen_env) : 12;
    channel = std::make_unique<SimulatedChannel>(gen == 9    ? Generation::kGen9
                                                 : gen == 11 ? Generation::kGen11
                                                             : Generation::kGen12);
  } else {
    if (mode != "auto" && mode != "force") {
      DUET_WARN("DUET_INTEL=%s is not auto, force, simulate or off: taken as auto", mode.c_str());
    }
    // Without a GPU, or with one that failed its self-test, the answer does
    // not change within a process: probe once.
    if (no_gpu) return nullptr;
    std::string why_not;
    channel = OpenI915Channel(&why_not);
    if (!channel) {
      no_gpu = true;
      if (mode == "force")
        DUET_WARN("intel_rcs: no GPU for fills and copies (%s)", why_not.c_str());
      else
        DUET_INFO("intel_rcs: no GPU for fills and copies (%s)", why_not.c_str());
      return nullptr;
    }
    if (mode == "auto") {
      const char* min_kb = std::getenv("DUET_INTEL_MIN_KB");
      min_bytes = (min_kb != nullptr ? std::strtoull(min_kb, nullptr, 10) : 256) * 1024;
    }
  }
  auto transfers = std::make_unique<IntelTransfers>(std::move(channel), min_bytes);
  if (transfers->SelfTest()) return transfers;
  if (mode != "simulate") no_gpu = true;
  return nullptr;
}

}  // namespace duet::intel_rcs
