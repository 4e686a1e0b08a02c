#include "png_file.h"

#include <png.h>

#include <cstdio>

namespace sample {

bool WritePng(const char* path, uint32_t width, uint32_t height, const uint8_t* rgba, uint32_t stride) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  png.width = width;
  png.height = height;
  png.format = PNG_FORMAT_RGBA;
  if (!png_image_write_to_file(&png, path, 0, rgba, png_int_32(stride), nullptr)) {
    std::fprintf(stderr, "%s: %s\n", path, png.message);
    return false;
  }
  return true;
}

}  // namespace sample
