// Pixel-checked tests of every pass, rendered offscreen (lavapipe where there is no GPU)
// with the validation layer on: each render checks that validation stayed silent, and the
// last test tears the device down and checks that nothing was leaked.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <glm/glm.hpp>

#if defined(__SANITIZE_ADDRESS__)
#include <dlfcn.h>
#include <link.h>
#endif

#include "nudge/render/draw_list.h"
#include "nudge/render/gpu_context.h"
#include "nudge/render/legend_layout.h"
#include "nudge/render/offscreen_target.h"
#include "nudge/render/render_pass.h"
#include "nudge/render/scene_renderer.h"
#include "shared_shading.h"

using namespace nudge::render;

namespace {

constexpr int kSize = 256;
using Bytes = std::array<std::uint8_t, 4>;

struct Gpu {
  std::shared_ptr<const ValidationLog> log;
  GpuContext context;
  OffscreenTarget target;  // destroyed before the context
};

std::optional<Gpu>& gpu_holder() {
  static std::optional<Gpu> holder;
  return holder;
}

#if defined(__SANITIZE_ADDRESS__)
// Mesa's Vulkan drivers keep process-wide allocations (pthread_once initialisers, LLVM
// state) in their globals, and the loader dlclose()s the driver at vkDestroyInstance. The
// globals are unmapped, so LeakSanitizer reports those allocations as leaks from an
// "<unknown module>" that no suppression can name. Keeping every library loaded so far
// (driver, layers) mapped leaves them reachable; leaks in our own code are still reported.
void keep_loaded_libraries_mapped() {
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void*) {
        if (info->dlpi_name && info->dlpi_name[0] != '\0')
          dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);  // reference kept
        return 0;
      },
      nullptr);
}
#else
void keep_loaded_libraries_mapped() {}
#endif

std::string joined(const std::vector<std::string>& messages) {
  std::string all;
  for (const std::string& m : messages) all += m + "\n";
  return all;
}

Gpu& shared_gpu() {
  std::optional<Gpu>& holder = gpu_holder();
  if (!holder) {
    ContextOptions options;
    options.validation = true;
    Expected<GpuContext> context = GpuContext::create(options);
    REQUIRE_MESSAGE(context.ok(), (context.ok() ? "" : context.error().message));
    keep_loaded_libraries_mapped();
    INFO(joined(context->notes()));
    CHECK(context->validation_enabled());
    MESSAGE("rendering on ", context->device_name());
    Expected<OffscreenTarget> target = OffscreenTarget::create(*context, kSize, kSize, 4);
    REQUIRE_MESSAGE(target.ok(), (target.ok() ? "" : target.error().message));
    std::shared_ptr<const ValidationLog> log = context->validation_log();
    holder.emplace(Gpu{log, std::move(*context), std::move(*target)});
  }
  return *holder;
}

void check_no_validation_messages() {
  const Gpu& g = shared_gpu();
  INFO(joined(g.log->messages()));
  CHECK(g.log->count() == 0);
}

Image render(const DrawList& list, int width = kSize, int height = kSize) {
  Gpu& g = shared_gpu();
  const Status resized = g.target.resize(width, height);
  REQUIRE_MESSAGE(resized.ok(), (resized.ok() ? "" : resized.error().message));
  Expected<Image> image = g.target.render(list);
  REQUIRE_MESSAGE(image.ok(), (image.ok() ? "" : image.error().message));
  REQUIRE(image->width == width);
  REQUIRE(image->height == height);
  check_no_validation_messages();
  return std::move(*image);
}

// A list with nothing in it but a camera looking down -z at the origin from z = 4.
DrawList empty_front_view() {
  DrawList list;
  list.grid.visible = false;
  list.camera.eye = {0, 0, 4};
  list.camera.target = {0, 0, 0};
  return list;
}

std::string show(Bytes b) {
  char text[48];
  std::snprintf(text, sizeof text, "(%d, %d, %d, %d)", b[0], b[1], b[2], b[3]);
  return text;
}

int rgb_difference(Bytes a, Bytes b) {
  int worst = 0;
  for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(int(a[c]) - int(b[c])));
  return worst;
}

glm::ivec2 pixel_of(const DrawList& list, glm::vec3 world, int width = kSize, int height = kSize) {
  const std::optional<glm::vec2> p = project_to_pixel(list.camera, world, width, height);
  REQUIRE(p);
  return glm::ivec2(glm::floor(*p));
}

void check_pixel(const Image& image, glm::ivec2 p, Bytes expected, int tolerance) {
  const Bytes got = pixel_at(image, p.x, p.y);
  INFO("pixel (", p.x, ", ", p.y, ") is ", show(got), ", expected ", show(expected), " +- ", tolerance);
  CHECK(rgb_difference(got, expected) <= tolerance);
}

Bytes bytes_of(glm::vec3 rgb) { return to_bytes(Rgba{rgb.r, rgb.g, rgb.b, 1}); }
glm::vec3 rgb_of(Rgba c) { return {c.r, c.g, c.b}; }

struct Ray {
  glm::vec3 origin, direction;
};

// The ray through the centre of pixel p, as the rasteriser samples it.
Ray pixel_ray(const Camera& camera, glm::ivec2 p, int width = kSize, int height = kSize) {
  const glm::mat4 inverse = glm::inverse(projection_matrix(camera, float(width) / float(height)) * view_matrix(camera));
  const glm::vec2 ndc{(float(p.x) + 0.5f) / float(width) * 2 - 1, (float(p.y) + 0.5f) / float(height) * 2 - 1};
  glm::vec4 a = inverse * glm::vec4(ndc, 0, 1);
  glm::vec4 b = inverse * glm::vec4(ndc, 1, 1);
  return {camera.eye, glm::normalize(glm::vec3(b) / b.w - glm::vec3(a) / a.w)};
}

// The colour a lit sphere must show at pixel p (the shaders' own lighting function).
Bytes expected_sphere_pixel(const DrawList& list, const Sphere& s, glm::ivec2 p) {
  const Ray ray = pixel_ray(list.camera, p);
  const glm::vec3 to_center = s.center - ray.origin;
  const float along = glm::dot(to_center, ray.direction);
  const glm::vec3 miss = to_center - along * ray.direction;
  const float t = along - std::sqrt(s.radius * s.radius - glm::dot(miss, miss));
  const glm::vec3 normal = glm::normalize(ray.origin + t * ray.direction - s.center);
  return bytes_of(gpu::shade_surface(rgb_of(s.color), normal, glm::normalize(list.light_direction), -ray.direction));
}

// The colour a lit plane (point, normal) of colour c must show at pixel p: two-sided.
Bytes expected_plane_pixel(const DrawList& list, glm::vec3 point, glm::vec3 normal, Rgba c, glm::ivec2 p) {
  const Ray ray = pixel_ray(list.camera, p);
  const float t = glm::dot(point - ray.origin, normal) / glm::dot(ray.direction, normal);
  const glm::vec3 hit = ray.origin + t * ray.direction;
  const glm::vec3 to_eye = glm::normalize(list.camera.eye - hit);
  const glm::vec3 facing = glm::dot(normal, to_eye) < 0 ? -normal : normal;
  return bytes_of(gpu::shade_surface(rgb_of(c), glm::normalize(facing), glm::normalize(list.light_direction), to_eye));
}

Mesh square(float z, float half, Rgba color) {
  Mesh mesh;
  mesh.positions = {{-half, -half, z}, {half, -half, z}, {half, half, z}, {-half, half, z}};
  mesh.normals.assign(4, glm::vec3(0, 0, 1));
  mesh.colors = {color};
  mesh.indices = {0, 1, 2, 0, 2, 3};
  return mesh;
}

// Releases the shared device when the test run ends, whichever tests ran: destroying
// Vulkan objects from static destructors, after the driver's own exit handlers, crashes.
struct ReleaseGpuAtRunEnd : doctest::IReporter {
  explicit ReleaseGpuAtRunEnd(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override { gpu_holder().reset(); }
  void test_case_start(const doctest::TestCaseData&) override {}
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("release_gpu_at_run_end", 1, ReleaseGpuAtRunEnd);

}  // namespace

TEST_CASE("offscreen: background only fills every pixel with the background colour") {
  DrawList list = empty_front_view();
  list.background = {0.2f, 0.4f, 0.6f, 1.0f};
  const Image image = render(list);
  const Bytes expected = to_bytes(list.background);
  int wrong = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) wrong += pixel_at(image, x, y) != expected;
  CHECK(wrong == 0);
  CHECK(show(pixel_at(image, 0, 0)) == show(expected));
}

TEST_CASE("offscreen: a sphere appears where project_to_pixel says, lit, and nowhere else") {
  DrawList list = empty_front_view();
  list.camera.eye = {1.0f, 1.5f, 4.0f};
  list.light_direction = {0.3f, 0.6f, 1.0f};
  const Sphere sphere{{0.3f, -0.2f, 0.1f}, 0.5f, {0.85f, 0.35f, 0.2f, 1}};
  list.spheres.push_back(sphere);
  const Image image = render(list);

  const glm::ivec2 centre = pixel_of(list, sphere.center);
  check_pixel(image, centre, expected_sphere_pixel(list, sphere, centre), 3);
  // Off-centre pixels are shaded with their own normals.
  const glm::vec3 right = glm::normalize(glm::cross(list.camera.target - list.camera.eye, list.camera.up));
  const glm::vec2 centre_px = *project_to_pixel(list.camera, sphere.center, kSize, kSize);
  const float radius_px =
      glm::length(*project_to_pixel(list.camera, sphere.center + right * sphere.radius, kSize, kSize) - centre_px);
  REQUIRE(radius_px > 20);
  for (glm::vec2 offset : {glm::vec2(0.6f, 0), glm::vec2(-0.5f, 0.4f), glm::vec2(0, -0.7f)}) {
    const glm::ivec2 p = glm::ivec2(glm::floor(centre_px + offset * radius_px));
    check_pixel(image, p, expected_sphere_pixel(list, sphere, p), 3);
  }
  // Inside its outline every pixel is sphere; well outside, every pixel is background.
  const Bytes background = to_bytes(list.background);
  int missing = 0, stray = 0;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const float d = glm::length(glm::vec2(float(x) + 0.5f, float(y) + 0.5f) - centre_px);
      const bool is_background = pixel_at(image, x, y) == background;
      if (d < 0.9f * radius_px && is_background) ++missing;
      if (d > 1.15f * radius_px && !is_background) ++stray;
    }
  }
  CHECK(missing == 0);
  CHECK(stray == 0);
}

TEST_CASE("offscreen: small spheres (point sprites) are lit, placed and outlined like big ones") {
  // A few pixels wide, all over the image: far off the axis of view they stretch.
  DrawList list = empty_front_view();
  list.camera.eye = {0.5f, 1.0f, 4.0f};
  list.light_direction = {0.3f, 0.6f, 1.0f};
  const Rgba colors[] = {{0.85f, 0.35f, 0.2f, 1}, {0.3f, 0.8f, 0.4f, 1}, {0.4f, 0.5f, 0.9f, 1}};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j)
      list.spheres.push_back({{-1.1f + 0.55f * float(i), -0.9f + 0.45f * float(j), 0.25f * float(i - j)},
                              0.045f + 0.006f * float(i + j),
                              colors[(i + j) % 3]});
  // One sample per pixel shows each pixel's own ray; four show the outline's coverage.
  Expected<OffscreenTarget> single = OffscreenTarget::create(shared_gpu().context, kSize, kSize, 1);
  REQUIRE(single.ok());
  Expected<Image> one_sample = single->render(list);
  REQUIRE(one_sample.ok());
  const Image four_samples = render(list);

  const glm::vec3 right = glm::normalize(glm::cross(list.camera.target - list.camera.eye, list.camera.up));
  const Bytes background = to_bytes(list.background);
  for (const Sphere& sphere : list.spheres) {
    const std::optional<glm::vec2> centre_px = project_to_pixel(list.camera, sphere.center, kSize, kSize);
    REQUIRE(centre_px);
    const float radius_px =
        glm::length(*project_to_pixel(list.camera, sphere.center + right * sphere.radius, kSize, kSize) - *centre_px);
    INFO("sphere at (", centre_px->x, ", ", centre_px->y, "), radius ", radius_px, " px");
    REQUIRE(radius_px > 3.0f);
    REQUIRE(radius_px < 8.0f);
    // Every pixel whose ray hits the sphere well inside its outline shows the lit colour.
    int unlit = 0, missing = 0, stray = 0;
    const glm::ivec2 centre = glm::ivec2(glm::floor(*centre_px));
    const int reach = int(radius_px) + 6;
    for (int y = centre.y - reach; y <= centre.y + reach; ++y) {
      for (int x = centre.x - reach; x <= centre.x + reach; ++x) {
        const float d = glm::length(glm::vec2(float(x) + 0.5f, float(y) + 0.5f) - *centre_px);
        if (d < radius_px - 1.0f &&
            rgb_difference(pixel_at(*one_sample, x, y), expected_sphere_pixel(list, sphere, {x, y})) > 3)
          ++unlit;
        // The outline of a sphere off the axis is an ellipse a little larger than radius_px.
        const bool is_background = pixel_at(four_samples, x, y) == background;
        if (d < radius_px - 1.0f && is_background) ++missing;
        if (d > 1.3f * radius_px + 1.5f && !is_background) ++stray;
      }
    }
    CHECK(unlit == 0);
    CHECK(missing == 0);
    CHECK(stray == 0);
  }
}

TEST_CASE("offscreen: sphere depth is exact: a plane through a sphere cuts its outline") {
  DrawList list = empty_front_view();
  list.light_direction = {0.2f, 0.3f, 1.0f};
  const Sphere sphere{{0, 0, 0}, 0.6f, {0.9f, 0.8f, 0.2f, 1}};
  const Rgba plane_color{0.3f, 0.5f, 0.8f, 1};
  list.spheres.push_back(sphere);
  list.meshes.push_back(square(0.4f, 2.0f, plane_color));  // cuts the sphere's front cap
  const Image image = render(list);
  // The cap in front of z = 0.4 has radius sqrt(0.6^2 - 0.4^2) = 0.447 around the axis.
  const glm::ivec2 centre = pixel_of(list, {0, 0, 0});
  check_pixel(image, centre, expected_sphere_pixel(list, sphere, centre), 3);
  const glm::ivec2 on_plane = pixel_of(list, {0.52f, 0, 0.4f});  // beyond the cap, inside the outline
  check_pixel(image, on_plane, expected_plane_pixel(list, {0, 0, 0.4f}, {0, 0, 1}, plane_color, on_plane), 3);
}

TEST_CASE("offscreen: lines of known colour cross known pixels, segments and strips") {
  DrawList list = empty_front_view();
  // 255 c far from halves, so that float error in interpolation cannot tip the rounding.
  const Rgba orange{1.0f, 0.52f, 0.0f, 1};
  const Rgba green{0.12f, 0.8f, 0.32f, 1};
  LineBatch segments;
  segments.points = {{-1, 0.5f, 0}, {1, 0.5f, 0}, {-1, 0.9f, 0}, {1, 0.9f, 0}};
  segments.colors = {orange, orange, {1, 0, 0, 1}, {0, 0, 1, 1}};
  segments.width_pixels = 5;
  LineBatch strip;
  strip.points = {{-1, -1, 0}, {0, -0.5f, 0}, {1, -1, 0}};
  strip.colors = {green};
  strip.width_pixels = 4;
  strip.strip = true;
  list.lines = {segments, strip};
  const Image image = render(list);
  const Bytes background = to_bytes(list.background);

  check_pixel(image, pixel_of(list, {0, 0.5f, 0}), to_bytes(orange), 0);
  check_pixel(image, pixel_of(list, {0.7f, 0.5f, 0}), to_bytes(orange), 0);
  check_pixel(image, pixel_of(list, {0, 0.5f, 0}) + glm::ivec2(0, 6), background, 0);  // 5 px wide
  check_pixel(image, pixel_of(list, {0.5f, -0.75f, 0}), to_bytes(green), 0);           // 2nd strip segment
  check_pixel(image, pixel_of(list, {-0.5f, -0.75f, 0}), to_bytes(green), 0);
  // Per-point colours are interpolated: half way from red to blue.
  check_pixel(image, pixel_of(list, {0, 0.9f, 0}), to_bytes(Rgba{0.5f, 0, 0.5f, 1}), 3);
}

TEST_CASE("offscreen: thin lines (line primitives) show their colour, width, blending, depth") {
  DrawList list = empty_front_view();
  list.light_direction = {0.3f, 0.6f, 1.0f};
  const Rgba orange{1.0f, 0.52f, 0.0f, 1};
  const Rgba green{0.12f, 0.8f, 0.32f, 1};
  const Rgba see_through{0.9f, 0.9f, 0.1f, 0.5f};
  LineBatch opaque;
  opaque.points = {{-1, 0.3f, 0}, {1, 0.3f, 0}};
  opaque.colors = {orange};
  opaque.width_pixels = 2;
  LineBatch strip;
  strip.points = {{-1, -1, 0}, {0, -0.5f, 0}, {1, -1, 0}};
  strip.colors = {green};
  strip.width_pixels = 1.5f;
  strip.strip = true;
  LineBatch translucent;
  translucent.points = {{-1, -0.2f, 0}, {1, -0.2f, 0}};
  translucent.colors = {see_through};
  translucent.width_pixels = 2;
  list.lines = {opaque, strip, translucent};
  const Sphere sphere{{0.5f, 0.3f, 0.5f}, 0.15f, {0.3f, 0.4f, 0.9f, 1}};  // in front of a line
  list.spheres.push_back(sphere);
  const Image image = render(list);
  const Bytes background = to_bytes(list.background);

  check_pixel(image, pixel_of(list, {-0.3f, 0.3f, 0}), to_bytes(orange), 1);
  check_pixel(image, pixel_of(list, {-0.3f, 0.3f, 0}) + glm::ivec2(0, 3), background, 0);
  check_pixel(image, pixel_of(list, {-0.3f, 0.3f, 0}) - glm::ivec2(0, 3), background, 0);
  check_pixel(image, pixel_of(list, {0.5f, -0.75f, 0}), to_bytes(green), 1);
  check_pixel(image, pixel_of(list, {-0.5f, -0.75f, 0}), to_bytes(green), 1);
  const Rgba blended{0.5f * see_through.r + 0.5f * list.background.r, 0.5f * see_through.g + 0.5f * list.background.g,
                     0.5f * see_through.b + 0.5f * list.background.b, 1};
  check_pixel(image, pixel_of(list, {0.2f, -0.2f, 0}), to_bytes(blended), 2);
  const glm::ivec2 behind = pixel_of(list, sphere.center);
  check_pixel(image, behind, expected_sphere_pixel(list, sphere, behind), 3);
}

TEST_CASE("offscreen: an arrow shows its colour at the middle of its drawn length") {
  DrawList list = empty_front_view();
  const Rgba teal{0.2f, 0.88f, 0.68f, 1};  // 255 c far from halves: no rounding ties
  ArrowBatch long_arrow;                   // |v| = 10, clamped to 1.5
  long_arrow.origins = {{-1, 0.3f, 0}};
  long_arrow.vectors = {{10, 0, 0}};
  long_arrow.max_length = 1.5f;
  long_arrow.width_pixels = 4;
  long_arrow.colors = {teal};
  ArrowBatch scaled;  // |v| = 1, scaled to 0.5
  scaled.origins = {{-1, -0.4f, 0}};
  scaled.vectors = {{1, 0, 0}};
  scaled.scale = 0.5f;
  scaled.colors = {teal};
  list.arrows = {long_arrow, scaled};
  const Image image = render(list);
  const Bytes background = to_bytes(list.background);

  check_pixel(image, pixel_of(list, {-0.25f, 0.3f, 0}), to_bytes(teal), 0);  // middle
  check_pixel(image, pixel_of(list, {0.42f, 0.3f, 0}), to_bytes(teal),
              0);                                                      // the head, near the tip
  check_pixel(image, pixel_of(list, {0.6f, 0.3f, 0}), background, 0);  // beyond the tip
  check_pixel(image, pixel_of(list, {-0.75f, -0.4f, 0}), to_bytes(teal), 0);
  check_pixel(image, pixel_of(list, {-0.4f, -0.4f, 0}), background, 0);
  // The head (16 px long, 6.4 px half-width at its base, about 0.2 units) is wider than
  // the shaft (2 px half-width).
  check_pixel(image, pixel_of(list, {0.33f, 0.3f, 0}) + glm::ivec2(0, 4), to_bytes(teal), 0);
  check_pixel(image, pixel_of(list, {-0.25f, 0.3f, 0}) + glm::ivec2(0, 4), background, 0);
}

TEST_CASE("offscreen: a mesh triangle covers its centroid with its lit colour, from both sides") {
  const Rgba blue{0.3f, 0.55f, 0.9f, 1};
  for (int variant = 0; variant < 3; ++variant) {
    CAPTURE(variant);  // 0: given normals, 1: reversed winding and normals, 2: computed normals
    DrawList list = empty_front_view();
    list.light_direction = {0.4f, 0.5f, 1.0f};
    Mesh mesh;
    mesh.positions = {{-1, -0.8f, 0}, {1, -0.8f, 0}, {0, 1, 0}};
    mesh.colors = {blue, blue, blue};
    mesh.indices = {0, 1, 2};
    if (variant == 0) mesh.normals.assign(3, glm::vec3(0, 0, 1));
    if (variant == 1) {
      mesh.indices = {0, 2, 1};
      mesh.normals.assign(3, glm::vec3(0, 0, -1));
    }
    list.meshes.push_back(mesh);
    const Image image = render(list);
    const glm::vec3 centroid = (mesh.positions[0] + mesh.positions[1] + mesh.positions[2]) / 3.0f;
    const glm::ivec2 p = pixel_of(list, centroid);
    check_pixel(image, p, expected_plane_pixel(list, centroid, {0, 0, 1}, blue, p), 3);
    check_pixel(image, pixel_of(list, {0.9f, 0.9f, 0}), to_bytes(list.background), 0);
  }
}

TEST_CASE("offscreen: a textured quad shows its texels at the right places") {
  DrawList list = empty_front_view();
  TexturedQuad quad;
  quad.corners = {glm::vec3(-1, 1, 0), glm::vec3(1, 1, 0), glm::vec3(1, -1, 0), glm::vec3(-1, -1, 0)};
  quad.width = 2;
  quad.height = 2;
  quad.rgba = {255, 0, 0,   255, 0,   255, 0, 255,   // top row: red, green
               0,   0, 255, 255, 255, 255, 0, 255};  // bottom row: blue, yellow
  list.quads.push_back(quad);
  TexturedQuad smooth;  // black to white, filtered
  smooth.corners = {glm::vec3(-1, -1.1f, 0), glm::vec3(1, -1.1f, 0), glm::vec3(1, -1.4f, 0), glm::vec3(-1, -1.4f, 0)};
  smooth.width = 2;
  smooth.height = 1;
  smooth.rgba = {0, 0, 0, 255, 255, 255, 255, 255};
  smooth.filter = TextureFilter::Linear;
  list.quads.push_back(smooth);
  TexturedQuad holes;  // alpha 0 texels are not drawn
  holes.corners = {glm::vec3(-1, 1.4f, 0), glm::vec3(1, 1.4f, 0), glm::vec3(1, 1.1f, 0), glm::vec3(-1, 1.1f, 0)};
  holes.width = 2;
  holes.height = 1;
  holes.rgba = {255, 255, 255, 0, 200, 100, 50, 255};
  list.quads.push_back(holes);
  const Image image = render(list);

  check_pixel(image, pixel_of(list, {-0.5f, 0.5f, 0}), {255, 0, 0, 255}, 0);
  check_pixel(image, pixel_of(list, {0.5f, 0.5f, 0}), {0, 255, 0, 255}, 0);
  check_pixel(image, pixel_of(list, {-0.5f, -0.5f, 0}), {0, 0, 255, 255}, 0);
  check_pixel(image, pixel_of(list, {0.5f, -0.5f, 0}), {255, 255, 0, 255}, 0);
  check_pixel(image, pixel_of(list, {-0.01f, -1.25f, 0}), {127, 127, 127, 255}, 4);  // midway
  check_pixel(image, pixel_of(list, {-0.9f, -1.25f, 0}), {0, 0, 0, 255}, 2);         // clamped to edge
  check_pixel(image, pixel_of(list, {-0.5f, 1.25f, 0}), to_bytes(list.background), 0);
  check_pixel(image, pixel_of(list, {0.5f, 1.25f, 0}), {200, 100, 50, 255}, 0);
}

TEST_CASE("offscreen: the grid draws the X axis red and the Z axis blue") {
  DrawList list;  // the default camera, grid on
  const Image image = render(list);
  const Bytes x_axis = pixel_at(image, pixel_of(list, {1.5f, 0, 0}).x, pixel_of(list, {1.5f, 0, 0}).y);
  const Bytes z_axis = pixel_at(image, pixel_of(list, {0, 0, 1.5f}).x, pixel_of(list, {0, 0, 1.5f}).y);
  INFO("x axis ", show(x_axis), ", z axis ", show(z_axis));
  CHECK(x_axis[0] > x_axis[1] + 80);
  CHECK(x_axis[0] > x_axis[2] + 80);
  CHECK(z_axis[2] > z_axis[0] + 80);
  CHECK(z_axis[2] > z_axis[1] + 40);
  // Between lines the ground is see-through; far beyond the grid there is only background.
  check_pixel(image, {2, 2}, to_bytes(list.background), 0);
  check_pixel(image, pixel_of(list, {0.125f, 0, 0.625f}), to_bytes(list.background), 2);
}

TEST_CASE("offscreen: a legend's bar shows map_value colours row by row") {
  DrawList list = empty_front_view();
  list.legends = {{ColorMap::Diverging, -2.0f, 2.0f, "force"}, {ColorMap::Sequential, 0.0f, 10.0f, "speed"}};
  const Image image = render(list);
  const std::vector<LegendLayout> layouts = layout_legends(list.legends, kSize, kSize);
  REQUIRE(layouts.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    const Legend& legend = list.legends[i];
    const PixelRect& bar = layouts[i].bar;
    CAPTURE(i);
    for (int y : {bar.y, bar.y + bar.height / 4, bar.y + bar.height / 2, bar.y + bar.height - 1}) {
      const float value = legend.min + legend_bar_t(bar, y) * (legend.max - legend.min);
      check_pixel(image, {bar.x + bar.width / 2, y}, to_bytes(map_value(legend.map, value, legend.min, legend.max)), 1);
    }
  }
  // The middle of the diverging bar is (nearly) white; its top is red, its bottom blue.
  const PixelRect& bar = layouts[0].bar;
  const Bytes top = pixel_at(image, bar.x + 2, bar.y);
  const Bytes bottom = pixel_at(image, bar.x + 2, bar.y + bar.height - 1);
  CHECK(top[0] > top[2]);
  CHECK(bottom[2] > bottom[0]);
  // Text is drawn inside the panel, beside the bar.
  int bright = 0;
  const PixelRect& panel = layouts[0].panel;
  for (int y = panel.y; y < panel.y + panel.height; ++y)
    for (int x = bar.x + bar.width + 2; x < panel.x + panel.width; ++x) bright += pixel_at(image, x, y)[1] > 200;
  CHECK(bright > 20);
}

TEST_CASE("offscreen: malformed draw lists are refused with a message; the target survives") {
  DrawList list = empty_front_view();
  TexturedQuad quad;
  quad.width = 4;
  quad.height = 4;
  quad.rgba.resize(10);
  list.quads.push_back(quad);
  Expected<Image> refused = shared_gpu().target.render(list);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("quads[0]") != std::string::npos);
  list.quads.clear();
  const Image image = render(list);
  check_pixel(image, {10, 10}, to_bytes(list.background), 0);
}

TEST_CASE("offscreen: resizing and re-creating targets works and leaks nothing") {
  DrawList list = empty_front_view();
  list.spheres.push_back({{0, 0, 0}, 0.5f, {1, 1, 1, 1}});
  for (auto [w, h] : {std::pair{64, 48}, std::pair{300, 200}, std::pair{kSize, kSize}}) {
    const Image image = render(list, w, h);
    CHECK(pixel_at(image, w / 2, h / 2) != to_bytes(list.background));
  }
  CHECK_FALSE(shared_gpu().target.resize(0, 10).ok());
  CHECK(shared_gpu().target.width() == kSize);  // a failed resize keeps the old size
  for (int i = 0; i < 3; ++i) {
    Expected<OffscreenTarget> target = OffscreenTarget::create(shared_gpu().context, 32, 32, i == 1 ? 1 : 4);
    REQUIRE(target.ok());
    Expected<Image> image = target->render(list);
    REQUIRE(image.ok());
    CHECK(pixel_at(*image, 16, 16) != to_bytes(list.background));
  }
  // A renderer for a window-like target: sRGB swapchain format, two frames in flight.
  RenderPassShape shape;
  shape.color_format = VK_FORMAT_B8G8R8A8_SRGB;
  shape.depth_format = shared_gpu().context.device().depth_format;
  shape.samples = VK_SAMPLE_COUNT_4_BIT;
  shape.final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  Expected<VkRenderPass> pass = create_scene_render_pass(shared_gpu().context.device().device, shape);
  REQUIRE(pass.ok());
  {
    SceneRendererConfig config{*pass, 0, shape.color_format, shape.samples, 2};
    Expected<SceneRenderer> renderer = SceneRenderer::create(shared_gpu().context, config);
    REQUIRE_MESSAGE(renderer.ok(), (renderer.ok() ? "" : renderer.error().message));
    CHECK(renderer->frames_in_flight() == 2);
  }
  vkDestroyRenderPass(shared_gpu().context.device().device, *pass, nullptr);
  check_no_validation_messages();
}

TEST_CASE("offscreen: an sRGB target shows the same colours (the path of sRGB swapchains)") {
  DrawList list = empty_front_view();
  list.background = {0.15f, 0.3f, 0.45f, 1};
  const Sphere sphere{{-0.6f, 0.4f, 0}, 0.4f, {0.8f, 0.4f, 0.3f, 1}};
  list.spheres.push_back(sphere);
  list.lines.push_back(LineBatch{{{-1, -0.5f, 0}, {1, -0.5f, 0}}, {{0.62f, 0.12f, 0.72f, 1}}, 5});
  TexturedQuad quad;
  quad.corners = {glm::vec3(0.2f, 0.8f, 0), glm::vec3(1, 0.8f, 0), glm::vec3(1, 0, 0), glm::vec3(0.2f, 0, 0)};
  quad.width = 1;
  quad.height = 1;
  quad.rgba = {40, 180, 90, 255};
  list.quads.push_back(quad);
  const Image unorm = render(list);
  Expected<OffscreenTarget> srgb_target =
      OffscreenTarget::create(shared_gpu().context, kSize, kSize, 4, VK_FORMAT_R8G8B8A8_SRGB);
  REQUIRE_MESSAGE(srgb_target.ok(), (srgb_target.ok() ? "" : srgb_target.error().message));
  Expected<Image> srgb = srgb_target->render(list);
  REQUIRE(srgb.ok());
  check_no_validation_messages();
  for (glm::vec3 world :
       {glm::vec3(0, 0.9f, 0), glm::vec3(-0.6f, 0.4f, 0), glm::vec3(0.6f, 0.4f, 0), glm::vec3(0, -0.5f, 0)}) {
    const glm::ivec2 p = pixel_of(list, world);
    check_pixel(*srgb, p, pixel_at(unorm, p.x, p.y), 1);
  }
  CHECK_FALSE(OffscreenTarget::create(shared_gpu().context, 8, 8, 1, VK_FORMAT_B8G8R8A8_UNORM).ok());
}

TEST_CASE("offscreen: the demo scene (written to the build tree to look at)") {
  DrawList list;
  list.camera.eye = {1.6f, 1.7f, 3.5f};
  list.camera.target = {-0.4f, 0.78f, -0.2f};
  list.camera.fov_y_degrees = 40;

  // A sheet hanging from pins along its top edge, folding and blown towards +z, coloured
  // by how far it moved.
  Mesh cloth;
  const int n = 32;
  for (int j = 0; j <= n; ++j) {
    for (int i = 0; i <= n; ++i) {
      const float u = float(i) / n, v = float(j) / n;
      const float fold = 0.07f * std::sin(9.0f * u + 1.0f) * v;
      const glm::vec3 p{-1.85f + 1.15f * u, 1.45f - 1.05f * v + 0.06f * v * v * std::sin(3.0f * u),
                        -0.75f + fold + 0.32f * v * v};
      cloth.positions.push_back(p);
      cloth.colors.push_back(
          map_value(ColorMap::Sequential, glm::length(glm::vec2(fold, 0.32f * v * v)) + 0.02f * v, 0.0f, 0.36f));
    }
  }
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const std::uint32_t a = std::uint32_t(j * (n + 1) + i), b = a + 1, c = a + (n + 1), d = c + 1;
      cloth.indices.insert(cloth.indices.end(), {a, b, d, a, d, c});
    }
  }
  for (int i = 0; i <= n; i += 8)
    list.spheres.push_back({cloth.positions[std::size_t(i)], 0.035f, {0.93f, 0.55f, 0.22f, 1}});
  list.meshes.push_back(cloth);

  // A mass-spring block: particles, springs coloured by strain, gradient arrows.
  std::vector<glm::vec3> rest, nodes;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 4; ++i) {
        const glm::vec3 r{-0.45f + 0.3f * float(i), 0.12f + 0.28f * float(j), -0.1f + 0.34f * float(k)};
        const float bulge = 0.05f * std::sin(2.4f * float(i)) * float(j) / 2.0f;
        rest.push_back(r);
        nodes.push_back(r + glm::vec3(0.0f, 0.03f * float(i) * float(j) / 3.0f, bulge));
      }
  LineBatch springs;
  springs.width_pixels = 2.0f;
  for (std::size_t a = 0; a < nodes.size(); ++a) {
    for (std::size_t b = a + 1; b < nodes.size(); ++b) {
      const float rest_length = glm::length(rest[a] - rest[b]);
      if (rest_length > 0.46f) continue;  // edges and face diagonals of the cells
      const float strain = (glm::length(nodes[a] - nodes[b]) - rest_length) / rest_length;
      const Rgba c = map_value(ColorMap::Diverging, strain, -0.12f, 0.12f);
      springs.points.insert(springs.points.end(), {nodes[a], nodes[b]});
      springs.colors.insert(springs.colors.end(), {c, c});
    }
  }
  list.lines.push_back(springs);
  for (const glm::vec3& p : nodes) {
    const Rgba pinned{0.93f, 0.55f, 0.22f, 1}, free_node{0.80f, 0.82f, 0.86f, 1};
    list.spheres.push_back({p, 0.05f, p.y < 0.2f ? pinned : free_node});
  }
  ArrowBatch gradients;
  gradients.width_pixels = 2.5f;
  gradients.scale = 0.5f;
  gradients.max_length = 0.4f;
  for (std::size_t i = 12; i < nodes.size(); ++i) {
    if (nodes[i].y < 0.6f) continue;  // the top layer
    const glm::vec3 g{0.35f * std::cos(float(i)), 0.45f + 0.25f * std::sin(float(i) * 1.7f), 0.2f};
    gradients.origins.push_back(nodes[i] + glm::vec3(0, 0.05f, 0));
    gradients.vectors.push_back(g);
    gradients.colors.push_back({0.98f, 0.86f, 0.35f, 1});
  }
  list.arrows.push_back(gradients);

  // A projectile's trajectory to a target, coloured by time.
  LineBatch trajectory;
  trajectory.strip = true;
  trajectory.width_pixels = 2;
  for (int s = 0; s <= 48; ++s) {
    const float t = float(s) / 48;
    trajectory.points.push_back({-1.3f + 2.9f * t, 0.04f + 2.0f * t * (1 - t), 1.25f - 0.25f * t});
    trajectory.colors.push_back(map_value(ColorMap::Sequential, t, 0.0f, 1.0f));
  }
  list.lines.push_back(trajectory);
  list.spheres.push_back({trajectory.points[30], 0.06f, {0.95f, 0.78f, 0.25f, 1}});

  list.legends = {{ColorMap::Diverging, -0.12f, 0.12f, "spring strain"},
                  {ColorMap::Sequential, 0.0f, 0.36f, "cloth displacement (m)"}};

  const Image image = render(list, 1280, 720);
  const std::filesystem::path dir = NUDGE_RENDER_TEST_OUTPUT;
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "demo_scene.png").string();
  const Status written = write_png(path, image);
  REQUIRE_MESSAGE(written.ok(), (written.ok() ? "" : written.error().message));
  MESSAGE("demo scene written to ", path);
  // Something of everything is on screen.
  int non_background = 0;
  for (int y = 0; y < image.height; y += 4)
    for (int x = 0; x < image.width; x += 4) non_background += pixel_at(image, x, y) != to_bytes(list.background);
  CHECK(non_background > 2000);
}

TEST_CASE("offscreen: validation stayed silent, also when the device was destroyed") {
  std::shared_ptr<const ValidationLog> log = shared_gpu().log;
  gpu_holder().reset();  // target, then context: the layer reports objects never destroyed
  INFO(joined(log->messages()));
  CHECK(log->count() == 0);
}
