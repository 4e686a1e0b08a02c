#include "objects/live_objects.h"

#include <mutex>
#include <shared_mutex>
#include <unordered_set>

namespace duet {
namespace {

struct LiveSet {
  std::shared_mutex mutex;
  std::unordered_set<const void*> objects;
};

LiveSet& Live() {
  static LiveSet set;  // destroyed when the driver is unloaded, after every object
  return set;
}

}  // namespace

void MarkLive(const void* object) {
  LiveSet& live = Live();
  std::unique_lock lock(live.mutex);
  live.objects.insert(object);
}

void MarkDead(const void* object) {
  LiveSet& live = Live();
  std::unique_lock lock(live.mutex);
  live.objects.erase(object);
}

bool IsLive(const void* object) {
  if (object == nullptr) return false;
  LiveSet& live = Live();
  std::shared_lock lock(live.mutex);
  return live.objects.count(object) != 0;
}

}  // namespace duet
