#include "spirv_exec/debug_printf.h"

#include <bit>
#include <cinttypes>
#include <cstdio>

#include "util/log.h"

namespace duet::spirv_exec {
namespace {

// The bits of component `c` of an argument in lane `lane`.
uint64_t Component(const PrintArgument& arg, WaveState& w, uint32_t c, uint32_t lane) {
  using Kind = PrintArgument::Kind;
  const bool wide = arg.kind == Kind::kDouble || arg.kind == Kind::kUint64 || arg.kind == Kind::kInt64;
  if (!wide) return w.Register(arg.reg + c)[lane];
  return uint64_t{w.Register(arg.reg + 2 * c)[lane]} | uint64_t{w.Register(arg.reg + 2 * c + 1)[lane]} << 32;
}

// One value by a conversion `spec` ("%5.2f", "%lx"...) of its type.
std::string FormatOne(const std::string& spec, char conversion, const PrintArgument& arg, uint64_t bits) {
  using Kind = PrintArgument::Kind;
  char buffer[128];
  std::string c_spec = spec;
  const bool floating = conversion == 'f' || conversion == 'F' || conversion == 'e' || conversion == 'E' ||
                        conversion == 'g' || conversion == 'G' || conversion == 'a' || conversion == 'A';
  // The C conversion for the value's real width, whatever length the format gave.
  std::string stem;
  for (char ch : c_spec)
    if (ch != 'l' && ch != 'h') stem += ch;
  stem.pop_back();  // the conversion character
  if (floating) {
    const double value = arg.kind == Kind::kDouble  ? std::bit_cast<double>(bits)
                         : arg.kind == Kind::kFloat ? double(std::bit_cast<float>(uint32_t(bits)))
                                                    : double(bits);
    std::snprintf(buffer, sizeof buffer, (stem + conversion).c_str(), value);
    return buffer;
  }
  if (conversion == 'c') {
    std::snprintf(buffer, sizeof buffer, (stem + 'c').c_str(), int(bits & 0xFF));
    return buffer;
  }
  const bool is_signed = conversion == 'd' || conversion == 'i';
  int64_t value = int64_t(bits);
  if (arg.kind == Kind::kInt || arg.kind == Kind::kFloat) value = int32_t(uint32_t(bits));
  if (arg.kind == Kind::kUint || arg.kind == Kind::kBool) value = int64_t(uint32_t(bits));
  if (arg.kind == Kind::kFloat && !is_signed) value = int64_t(uint32_t(bits));  // a float's bits, as %x shows them
  if (is_signed) {
    std::snprintf(buffer, sizeof buffer, (stem + PRId64).c_str(), value);
  } else {
    const char* c = conversion == 'x' ? PRIx64 : conversion == 'X' ? PRIX64 : conversion == 'o' ? PRIo64 : PRIu64;
    std::snprintf(buffer, sizeof buffer, (stem + c).c_str(), uint64_t(value));
  }
  return buffer;
}

}  // namespace

std::string FormatDebugPrintf(const PrintCall& call, WaveState& w, uint32_t lane) {
  std::string out;
  const std::string& f = call.format;
  size_t next = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') {
      out += f[i];
      continue;
    }
    if (i + 1 < f.size() && f[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    // %[v<N>][flags][width][.precision][length]conversion
    size_t j = i + 1;
    uint32_t vector = 0;
    if (j < f.size() && f[j] == 'v') {
      ++j;
      while (j < f.size() && f[j] >= '0' && f[j] <= '9') vector = vector * 10 + uint32_t(f[j++] - '0');
    }
    std::string spec = "%";
    while (j < f.size() && std::string("-+ #0123456789.lh").find(f[j]) != std::string::npos) spec += f[j++];
    if (j >= f.size()) {
      out += f.substr(i);
      break;
    }
    const char conversion = f[j];
    spec += conversion;
    i = j;
    if (next >= call.arguments.size()) {
      out += "<missing>";
      continue;
    }
    const PrintArgument& arg = call.arguments[next++];
    const uint32_t count = vector != 0 ? std::min(vector, arg.components) : 1;
    for (uint32_t c = 0; c < count; ++c) {
      if (c != 0) out += ", ";
      out += FormatOne(spec, conversion, arg, Component(arg, w, c, lane));
    }
  }
  return out;
}

void ExecutePrint(const Program& p, const Inst& in, WaveState& w) {
  if (in.aux >= p.prints.size()) return;
  const LaneMask lanes = w.active & ~(w.helpers | w.demoted);
  for (uint32_t l = 0; l < kWaveWidth; ++l)
    if ((lanes >> l) & 1) DUET_INFO("%s", FormatDebugPrintf(p.prints[in.aux], w, l).c_str());
}

}  // namespace duet::spirv_exec
