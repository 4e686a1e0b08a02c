// duet_vkcube_png: checks on vkcube (and vkd3d demo) screenshots (PNG files
// written by libduet_vkcube_capture.so), for tests/vkcube/check_vkcube.sh
// and check_vkd3d.sh.
//
//   duet_vkcube_png cube <shot.png>
//       The picture is a vkcube frame: a uniform background (the colour of
//       the four corners), a cube covering between 5% and 80% of the window
//       whose bounding box is centred within 15% of the window size, and the
//       LunarG texture, lit, on it: at least 300 distinct colours among the
//       cube's pixels, at least 5% of them the logo's teal (green and blue
//       well above red).
//   duet_vkcube_png compare <shot.png> <reference.png> [max_mean] [max_bad_percent] [bad_threshold]
//       Both pictures show the same frame: the same size and background,
//       a mean absolute difference per channel of at most max_mean (default
//       1.0 level), at most max_bad_percent (default 0.5) of the pixels
//       differing by more than bad_threshold (default 48) levels in some
//       channel, and cube bounding boxes within 2 pixels of each other.
//       (Duet against lavapipe: mean 0.001, 2 pixels of 250000 over 48; one
//       frame apart, 4 degrees of rotation: mean 3.4, 3.4% of the pixels.)
//   duet_vkcube_png colours <shot.png> <min_percent>
//       The picture is not one colour, and pure-ish red, green and blue
//       pixels each cover at least min_percent of it (vkd3d-gears' gears).
//
// Each command prints what it measured; the exit status is 0 when every
// check holds, 1 when one fails, 2 on a usage or file error.
#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

struct Image {
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgb;
  const uint8_t* At(uint32_t x, uint32_t y) const { return &rgb[(size_t(y) * width + x) * 3]; }
};

bool Load(const char* path, Image* out) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path)) {
    std::fprintf(stderr, "%s: %s\n", path, png.message);
    return false;
  }
  png.format = PNG_FORMAT_RGB;
  out->width = png.width;
  out->height = png.height;
  out->rgb.assign(PNG_IMAGE_SIZE(png), 0);
  if (!png_image_finish_read(&png, nullptr, out->rgb.data(), 0, nullptr)) {
    std::fprintf(stderr, "%s: %s\n", path, png.message);
    return false;
  }
  return true;
}

struct Features {
  uint8_t background[3] = {};
  bool corners_agree = false;
  size_t cube_pixels = 0;                                     // pixels differing from the background
  uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0;  // their bounding box (inclusive)
  size_t distinct_colors = 0;
  size_t teal_pixels = 0;  // cube pixels of the LunarG logo's blue-green (green and blue well above red)
};

bool Near(const uint8_t* a, const uint8_t* b, int tolerance) {
  for (int c = 0; c < 3; ++c)
    if (std::abs(int(a[c]) - int(b[c])) > tolerance) return false;
  return true;
}

Features Measure(const Image& image) {
  Features f;
  const uint8_t* corner = image.At(0, 0);
  std::memcpy(f.background, corner, 3);
  f.corners_agree = Near(corner, image.At(image.width - 1, 0), 0) && Near(corner, image.At(0, image.height - 1), 0) &&
                    Near(corner, image.At(image.width - 1, image.height - 1), 0);
  std::set<uint32_t> colors;
  for (uint32_t y = 0; y < image.height; ++y)
    for (uint32_t x = 0; x < image.width; ++x) {
      const uint8_t* p = image.At(x, y);
      if (Near(p, f.background, 0)) continue;
      ++f.cube_pixels;
      f.x0 = std::min(f.x0, x);
      f.y0 = std::min(f.y0, y);
      f.x1 = std::max(f.x1, x);
      f.y1 = std::max(f.y1, y);
      colors.insert(uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]);
      f.teal_pixels += p[1] >= p[0] + 16 && p[2] >= p[0] + 24;
    }
  f.distinct_colors = colors.size();
  return f;
}

void Print(const char* name, const Image& image, const Features& f) {
  std::printf(
      "%s: %ux%u, background rgb(%u,%u,%u)%s, cube %zu pixels (%.1f%%) in [%u,%u]-[%u,%u], %zu colours, "
      "%.1f%% of the cube teal\n",
      name, image.width, image.height, f.background[0], f.background[1], f.background[2],
      f.corners_agree ? "" : " (corners differ)", f.cube_pixels,
      100.0 * double(f.cube_pixels) / (double(image.width) * image.height), f.x0, f.y0, f.x1, f.y1, f.distinct_colors,
      f.cube_pixels ? 100.0 * double(f.teal_pixels) / double(f.cube_pixels) : 0.0);
}

int Fail(const char* what) {
  std::printf("FAIL: %s\n", what);
  return 1;
}

int CheckCube(const char* path) {
  Image image;
  if (!Load(path, &image)) return 2;
  const Features f = Measure(image);
  Print(path, image, f);
  int status = 0;
  if (!f.corners_agree) status = Fail("the four corners are not one background colour");
  const double coverage = double(f.cube_pixels) / (double(image.width) * image.height);
  if (coverage < 0.05 || coverage > 0.80) status = Fail("the cube covers less than 5% or more than 80% of the window");
  if (f.cube_pixels > 0) {
    const double cx = (f.x0 + f.x1 + 1) / 2.0, cy = (f.y0 + f.y1 + 1) / 2.0;
    if (std::abs(cx - image.width / 2.0) > 0.15 * image.width ||
        std::abs(cy - image.height / 2.0) > 0.15 * image.height)
      status = Fail("the cube's bounding box is not centred in the window");
  }
  if (f.distinct_colors < 300) status = Fail("fewer than 300 distinct colours on the cube: not textured and lit");
  if (f.teal_pixels * 20 < f.cube_pixels) status = Fail("less than 5% of the cube is the LunarG logo's teal");
  if (status == 0) std::printf("OK: a centred, textured cube on a uniform background\n");
  return status;
}

int Compare(const char* path, const char* reference_path, double max_mean, double max_bad_percent, int threshold) {
  Image image, reference;
  if (!Load(path, &image) || !Load(reference_path, &reference)) return 2;
  const Features f = Measure(image), r = Measure(reference);
  Print(path, image, f);
  Print(reference_path, reference, r);
  if (image.width != reference.width || image.height != reference.height) return Fail("the sizes differ");
  int status = 0;
  if (!Near(f.background, r.background, 1)) status = Fail("the background colours differ");
  double sum = 0;
  size_t bad = 0;
  int worst = 0;
  for (size_t i = 0; i < size_t(image.width) * image.height; ++i) {
    int pixel_worst = 0;
    for (int c = 0; c < 3; ++c) {
      const int d = std::abs(int(image.rgb[i * 3 + c]) - int(reference.rgb[i * 3 + c]));
      sum += d;
      pixel_worst = std::max(pixel_worst, d);
    }
    worst = std::max(worst, pixel_worst);
    bad += pixel_worst > threshold;
  }
  const double pixels = double(image.width) * image.height;
  const double mean = sum / (pixels * 3);
  const double bad_percent = 100.0 * double(bad) / pixels;
  std::printf("difference: mean %.3f levels per channel, %zu pixels (%.3f%%) off by more than %d, worst %d\n", mean,
              bad, bad_percent, threshold, worst);
  if (mean > max_mean) status = Fail("the mean difference is too large");
  if (bad_percent > max_bad_percent) status = Fail("too many pixels differ");
  auto off = [](uint32_t a, uint32_t b) { return std::abs(int64_t(a) - int64_t(b)) > 2; };
  if (off(f.x0, r.x0) || off(f.y0, r.y0) || off(f.x1, r.x1) || off(f.y1, r.y1))
    status = Fail("the cubes' bounding boxes differ by more than 2 pixels");
  if (status == 0) std::printf("OK: the same frame within tolerance\n");
  return status;
}

// Each of red, green and blue (the channel at least 96 and at least twice
// each other channel) covers at least min_percent of the picture, and the
// picture is not one colour.
int CheckColours(const char* path, double min_percent) {
  Image image;
  if (!Load(path, &image)) return 2;
  const Features f = Measure(image);
  Print(path, image, f);
  size_t counts[3] = {};
  for (size_t i = 0; i < size_t(image.width) * image.height; ++i) {
    const uint8_t* p = &image.rgb[i * 3];
    for (int c = 0; c < 3; ++c)
      counts[c] += p[c] >= 96 && p[c] >= 2 * p[(c + 1) % 3] && p[c] >= 2 * p[(c + 2) % 3];
  }
  const double pixels = double(image.width) * image.height;
  static const char* const kNames[3] = {"red", "green", "blue"};
  int status = 0;
  if (f.cube_pixels == 0) status = Fail("the picture is one colour");
  for (int c = 0; c < 3; ++c) {
    const double percent = 100.0 * double(counts[c]) / pixels;
    std::printf("%s: %.2f%% of the pixels\n", kNames[c], percent);
    if (percent < min_percent) status = Fail("a primary colour covers too little of the picture");
  }
  if (status == 0) std::printf("OK: red, green and blue each cover at least %.2f%%\n", min_percent);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "cube") == 0) return CheckCube(argv[2]);
  if (argc >= 4 && argc <= 7 && std::strcmp(argv[1], "compare") == 0)
    return Compare(argv[2], argv[3], argc > 4 ? std::atof(argv[4]) : 1.0, argc > 5 ? std::atof(argv[5]) : 0.5,
                   argc > 6 ? std::atoi(argv[6]) : 48);
  if (argc == 4 && std::strcmp(argv[1], "colours") == 0) return CheckColours(argv[2], std::atof(argv[3]));
  std::fprintf(stderr,
               "usage: %s cube <shot.png>\n"
               "       %s compare <shot.png> <reference.png> [max_mean] [max_bad_percent] [bad_threshold]\n"
               "       %s colours <shot.png> <min_percent>\n",
               argv[0], argv[0], argv[0]);
  return 2;
}
