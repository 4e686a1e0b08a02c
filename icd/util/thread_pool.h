// A fixed pool of worker threads shared by the whole driver for data-parallel
// work (workgroups, tiles). The calling thread takes part, so a pool of one
// runs everything inline.
#pragma once

#include <cstdint>
#include <functional>

namespace duet {

// Runs fn(i) for every i in [0, count), spread over the pool; returns when
// all have run. Calls from several threads at once are serialized.
void ParallelFor(uint32_t count, const std::function<void(uint32_t)>& fn);

// Worker threads in the pool (DUET_THREADS overrides; default: the cores).
uint32_t ThreadCount();

}  // namespace duet
