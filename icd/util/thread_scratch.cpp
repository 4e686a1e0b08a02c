#include "util/thread_scratch.h"

#include <pthread.h>

#include <mutex>
#include <vector>

namespace duet {

struct ScratchRegistry::State {
  void* (*make)();
  std::mutex mutex;
  std::vector<void*> all;   // every object made: they stay reachable from here
  std::vector<void*> free;  // those no live thread holds
  pthread_key_t key{};      // its value: the thread's object; its destructor returns it
  bool have_key = false;
};

ScratchRegistry::ScratchRegistry(void* (*make)(), void (*thread_exit)(void*)) : state_(new State) {
  state_->make = make;
  state_->have_key = pthread_key_create(&state_->key, thread_exit) == 0;
}

void* ScratchRegistry::Acquire() {
  void* object = nullptr;
  {
    std::lock_guard lock(state_->mutex);
    if (!state_->free.empty()) {
      object = state_->free.back();
      state_->free.pop_back();
    }
  }
  if (object == nullptr) {
    object = state_->make();
    std::lock_guard lock(state_->mutex);
    state_->all.push_back(object);
  }
  // Without a key (the process ran out of them) the object stays with the
  // registry and is not reused: correct, only less frugal.
  if (state_->have_key) pthread_setspecific(state_->key, object);
  return object;
}

void ScratchRegistry::Release(void* object) {
  std::lock_guard lock(state_->mutex);
  state_->free.push_back(object);
}

size_t ScratchRegistry::Size() const {
  std::lock_guard lock(state_->mutex);
  return state_->all.size();
}

}  // namespace duet
