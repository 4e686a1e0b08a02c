#include "backends/framebuffer/png_writer.h"

#include <png.h>

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>

#include "util/log.h"

namespace duet::framebuffer {
namespace {

// libpng reports errors by longjmp; this function owns no C++ objects whose
// destructors the jump could skip.
bool WriteRows(png_structp png, png_infop info, FILE* file, const Frame& frame) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_init_io(png, file);
  // Frames are written while an application runs: favour speed over size.
  png_set_compression_level(png, 1);
  png_set_IHDR(png, info, frame.width, frame.height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  if (frame.format == PixelFormat::kBgra8888) png_set_bgr(png);
  for (uint32_t y = 0; y < frame.height; ++y)
    png_write_row(png, reinterpret_cast<png_const_bytep>(frame.pixels + y * frame.stride));
  png_write_end(png, info);
  return true;
}

}  // namespace

bool WritePng(const char* path, const Frame& frame) {
  FILE* file = std::fopen(path, "wb");
  if (file == nullptr) {
    DUET_ERROR("cannot write %s: %s", path, std::strerror(errno));
    return false;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png != nullptr ? png_create_info_struct(png) : nullptr;
  bool ok = info != nullptr && WriteRows(png, info, file, frame);
  png_destroy_write_struct(&png, &info);
  ok = std::fclose(file) == 0 && ok;
  if (!ok) DUET_ERROR("writing %s failed", path);
  return ok;
}

}  // namespace duet::framebuffer
