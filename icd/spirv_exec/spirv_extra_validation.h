// Checks of valid-looking SPIR-V that the SPIRV-Tools validator lets
// through but its optimizer (or the compiler here) would crash on. Found by
// tools/fuzz/fuzz_spirv_ingest; each check names the construct it rejects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace duet::spirv_exec {

// False with a message when the module has one of those constructs.
bool CheckBeyondValidator(const uint32_t* words, size_t word_count, std::string* error);

}  // namespace duet::spirv_exec
