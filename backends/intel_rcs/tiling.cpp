#include "backends/intel_rcs/tiling.h"

namespace duet::intel_rcs {

const char* TilingName(Tiling tiling) {
  switch (tiling) {
    case Tiling::kLinear:
      return "linear";
    case Tiling::kX:
      return "X";
    case Tiling::kY:
      return "Y";
  }
  return "?";
}

}  // namespace duet::intel_rcs
