#include "pipeline_cache/build_id.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace duet::pipeline_cache {
namespace {

struct Search {
  uintptr_t base = 0;  // load address of the object holding this code
  bool found = false;
  XXH128_hash_t hash{};
};

// The NT_GNU_BUILD_ID note of the object loaded at `search->base`.
int FindNote(dl_phdr_info* info, size_t, void* data) {
  auto* search = static_cast<Search*>(data);
  if (info->dlpi_addr != search->base) return 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* at = reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr);
    const uint8_t* end = at + ph.p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const uint8_t* name = at + sizeof note;
      const uint8_t* desc = name + ((note.n_namesz + 3) & ~3u);
      if (desc + note.n_descsz > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
        search->hash = XXH3_128bits(desc, note.n_descsz);
        search->found = true;
        return 1;
      }
      at = desc + ((note.n_descsz + 3) & ~3u);
    }
  }
  return 1;
}

BuildId Find() {
  Search search;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&FindNote), &info) != 0) {
    // dlpi_addr is the load bias: the difference between where the object
    // is and where its headers say it is (0 for a non-PIE executable).
    search.base = reinterpret_cast<uintptr_t>(info.dli_fbase);
    dl_iterate_phdr(
        [](dl_phdr_info* i, size_t size, void* data) {
          auto* s = static_cast<Search*>(data);
          for (int k = 0; k < i->dlpi_phnum; ++k)
            if (i->dlpi_phdr[k].p_type == PT_LOAD && i->dlpi_phdr[k].p_offset == 0 &&
                i->dlpi_addr + i->dlpi_phdr[k].p_vaddr == s->base) {
              s->base = i->dlpi_addr;
              return FindNote(i, size, data);
            }
          return 0;
        },
        &search);
  }
  if (!search.found) {
    const char fallback[] = "duet " DUET_VERSION_STRING " " __DATE__ " " __TIME__;
    search.hash = XXH3_128bits(fallback, sizeof fallback);
  }
  BuildId id;
  std::memcpy(id.bytes, &search.hash.low64, 8);
  std::memcpy(id.bytes + 8, &search.hash.high64, 8);
  return id;
}

}  // namespace

const BuildId& DriverBuildId() {
  static const BuildId id = Find();
  return id;
}

}  // namespace duet::pipeline_cache
