// OpSpecConstantOp the optimizer's folding leaves (it folds 32-bit integer
// operations but not, for example, 64-bit shifts), evaluated when the
// constant is compiled.
#pragma once

#include <spirv/unified1/spirv.hpp11>

#include <cstdint>
#include <vector>

namespace duet::spirv_exec {

// The words of the result (`result_words` of them, 64-bit components when
// `wide_result`) of integer or boolean operation `op` on operands given as
// their words; false for an operation this does not evaluate.
bool EvaluateSpecConstantOp(spv::Op op, uint32_t result_words, bool wide_result,
                            const std::vector<std::vector<uint32_t>>& operands, std::vector<uint32_t>* result);

}  // namespace duet::spirv_exec
