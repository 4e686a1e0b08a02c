// Per-thread scratch (a worker's wave registers, a draw's index lists) that
// lives in a process-wide registry instead of in thread_local storage.
//
// Why not a thread_local object: queue threads live as long as their device,
// and memory held only by a thread's TLS is invisible to leak checkers that
// miss dynamic TLS (the driver is dlopen'ed); a thread_local with a
// destructor also costs a libc node per thread. Here a thread keeps a plain
// pointer; the registry owns every object, and a thread that exits hands
// its object back for the next thread that asks (so the count stays at the
// number of threads alive at once, and the memory is reused).
//
// The type names the scratch: each use site gets its own struct.
#pragma once

#include <cstddef>

namespace duet {

class ScratchRegistry {
 public:
  // `thread_exit` is the key destructor: it must call Release on this registry.
  ScratchRegistry(void* (*make)(), void (*thread_exit)(void*));
  ScratchRegistry(const ScratchRegistry&) = delete;
  ScratchRegistry& operator=(const ScratchRegistry&) = delete;

  // An object no live thread holds, made if there is none; it returns to the
  // registry when the calling thread exits.
  void* Acquire();

  // Takes back an object whose thread exited.
  void Release(void* object);

  // Objects made so far (tests).
  size_t Size() const;

 private:
  struct State;
  State* state_;  // never freed: threads may exit during process exit
};

template <typename T>
ScratchRegistry& ScratchRegistryOf() {
  // Leaked on purpose (see above): reachable from this static until exit.
  static ScratchRegistry* registry =
      new ScratchRegistry([]() -> void* { return new T(); }, [](void* p) { ScratchRegistryOf<T>().Release(p); });
  return *registry;
}

// The calling thread's T, the same one on every call until the thread exits.
template <typename T>
T& ThreadScratch() {
  thread_local T* mine = nullptr;  // trivially destructible: no TLS destructor
  if (mine == nullptr) mine = static_cast<T*>(ScratchRegistryOf<T>().Acquire());
  return *mine;
}

}  // namespace duet
