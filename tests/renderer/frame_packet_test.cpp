// Draw list to GPU records, on the CPU: arrow lengths, line segments, normals, legend
// layout and the checks of validate().
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "frame_packet.h"
#include "nudge/render/draw_list.h"
#include "nudge/render/legend_layout.h"

using namespace nudge::render;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("arrow_tip: drawn length is min(|v| * scale, max_length) along v") {
  ArrowBatch batch;
  batch.origins = {{1, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  batch.vectors = {{0, 2, 0}, {0, 0, 10}, {0, 0, 0}};
  batch.scale = 0.5f;
  batch.max_length = 3;
  CHECK(arrow_tip(batch, 0).y == doctest::Approx(1.0));  // 2 * 0.5
  CHECK(arrow_tip(batch, 0).x == doctest::Approx(1.0));
  CHECK(arrow_tip(batch, 1).z == doctest::Approx(3.0));  // 5, clamped to 3
  CHECK(arrow_tip(batch, 2) == batch.origins[2]);        // zero vector: nothing to draw

  DrawList list;
  list.arrows.push_back(batch);
  FramePacket packet;
  pack_frame(list, 64, 64, packet);
  CHECK(packet.arrows.size() == 2);
}

TEST_CASE("pack_frame: segments pair points, strips chain them, colours per point or one") {
  DrawList list;
  LineBatch pairs;
  pairs.points = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}};  // odd point ignored
  pairs.colors = {{1, 0, 0, 1}};
  LineBatch strip;
  strip.points = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
  strip.colors = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}};
  strip.strip = true;
  strip.width_pixels = 5;
  list.lines = {pairs, strip};
  FramePacket packet;
  pack_frame(list, 64, 64, packet);
  REQUIRE(packet.segments.size() == 2 + 3);
  CHECK(packet.segments[1].a.x == 2.0f);
  CHECK(packet.segments[1].color_b.r == 1.0f);
  CHECK(packet.segments[3].a.x == 1.0f);
  CHECK(packet.segments[3].b.x == 2.0f);
  CHECK(packet.segments[3].color_a.g == 1.0f);
  CHECK(packet.segments[3].color_b.b == 1.0f);
  CHECK(packet.segments[3].a.w == 5.0f);  // width travels in a.w
  // One run per batch, with its width; translucent colours are marked.
  REQUIRE(packet.line_runs.size() == 2);
  CHECK(packet.line_runs[0].first == 0);
  CHECK(packet.line_runs[0].count == 2);
  CHECK(packet.line_runs[1].first == 2);
  CHECK(packet.line_runs[1].count == 3);
  CHECK(packet.line_runs[1].width_pixels == 5.0f);
  CHECK(packet.line_runs[1].opaque);
  list.lines[1].colors[2].a = 0.5f;
  pack_frame(list, 64, 64, packet);
  CHECK(packet.line_runs[0].opaque);
  CHECK_FALSE(packet.line_runs[1].opaque);
}

TEST_CASE("pack_frame: spheres small on screen come first, counted for point sprites") {
  DrawList list;  // the default camera: eye (3, 2, 3), looking at the origin, near 0.01
  const glm::vec3 forward = glm::normalize(list.camera.target - list.camera.eye);
  list.spheres = {{{0, 0, 0}, 0.5f, {1, 0, 0, 1}},       // large
                  {{0, 0.2f, 0}, 0.005f, {0, 1, 0, 1}},  // a pixel or so
                  // A few pixels, but cut by the near plane: a point sprite would vanish.
                  {list.camera.eye + 0.01f * forward, 0.0002f, {0, 0, 1, 1}},
                  {{-1, 0, 0}, 0.004f, {1, 1, 0, 1}}};  // a pixel or so
  FramePacket packet;
  pack_frame(list, 200, 100, packet);
  REQUIRE(packet.spheres.size() == 4);
  CHECK(packet.point_spheres == 2);
  CHECK(packet.spheres[0].color.g == 1.0f);  // in their order
  CHECK(packet.spheres[1].color.r == 1.0f);
  CHECK(packet.spheres[1].color.g == 1.0f);
  CHECK(packet.spheres[2].color.r == 1.0f);
  CHECK(packet.spheres[3].color.b == 1.0f);
}

TEST_CASE("pack_frame: eye rays pass through what projects to each framebuffer position") {
  DrawList list;
  list.camera.eye = {1.5f, 2.0f, 4.0f};
  list.camera.target = {0.2f, 0.1f, -0.3f};
  const int width = 200, height = 100;
  const glm::ivec2 origin{30, 40};  // an area inside a larger framebuffer (a window's panel)
  FramePacket packet;
  pack_frame(list, width, height, packet, origin);
  const gpu::FrameUniforms& frame = packet.frame;
  for (glm::vec3 world : {glm::vec3(0, 0, 0), glm::vec3(0.7f, -0.4f, 0.3f), glm::vec3(-1, 1, -2)}) {
    const std::optional<glm::vec2> pixel = project_to_pixel(list.camera, world, width, height);
    REQUIRE(pixel);
    const glm::vec2 at = *pixel + glm::vec2(origin);
    const glm::vec3 ray =
        glm::vec3(frame.eye_ray) + at.x * glm::vec3(frame.eye_ray_dx) + at.y * glm::vec3(frame.eye_ray_dy);
    const glm::vec3 expected = glm::normalize(world - list.camera.eye);
    CHECK(glm::dot(glm::normalize(ray), expected) == doctest::Approx(1.0).epsilon(1e-6));
  }
}

TEST_CASE("smooth_normals: unit, area weighted, facing the winding's side") {
  // Two triangles of a unit square in the z = 0 plane, counter-clockwise seen from +z.
  const std::vector<glm::vec3> positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {5, 5, 5}};
  const std::vector<std::uint32_t> indices = {0, 1, 2, 0, 2, 3};
  const std::vector<glm::vec3> normals = smooth_normals(positions, indices);
  for (int i = 0; i < 4; ++i) {
    CHECK(normals[i].z == doctest::Approx(1.0));
    CHECK(glm::length(normals[i]) == doctest::Approx(1.0));
  }
  CHECK(normals[4] == glm::vec3(0, 1, 0));  // on no triangle

  DrawList list;
  Mesh mesh;
  mesh.positions = positions;
  mesh.indices = indices;
  list.meshes = {mesh, mesh};
  FramePacket packet;
  pack_frame(list, 64, 64, packet);
  CHECK(packet.mesh_vertices.size() == 10);
  CHECK(packet.mesh_indices[6] == 5);  // the second mesh's indices follow its vertices
  CHECK(packet.mesh_vertices[7].normal.z == doctest::Approx(1.0));
}

TEST_CASE("layout_legends: top-right, side by side, inside the image") {
  std::vector<Legend> legends = {{ColorMap::Diverging, -1, 1, "force"}, {ColorMap::Sequential, 0, 250, "speed (m/s)"}};
  for (auto [width, height] : {std::pair{256, 256}, std::pair{1280, 720}, std::pair{1920, 1080}}) {
    CAPTURE(width);
    const std::vector<LegendLayout> layouts = layout_legends(legends, width, height);
    REQUIRE(layouts.size() == 2);
    for (const LegendLayout& l : layouts) {
      CHECK(l.panel.x >= 0);
      CHECK(l.panel.y >= 0);
      CHECK(l.panel.x + l.panel.width <= width);
      CHECK(l.panel.y + l.panel.height <= height);
      CHECK(l.bar.x > l.panel.x);
      CHECK(l.bar.y + l.bar.height < l.panel.y + l.panel.height);
      CHECK(l.bar.height >= 20);
    }
    CHECK(layouts[0].panel.x + layouts[0].panel.width > width - 40);  // in the corner
    CHECK(layouts[1].panel.x + layouts[1].panel.width <= layouts[0].panel.x);
  }
  const PixelRect bar{0, 10, 4, 100};
  CHECK(legend_bar_t(bar, 10) == doctest::Approx(0.995));
  CHECK(legend_bar_t(bar, 109) == doctest::Approx(0.005));
}

TEST_CASE("validate: malformed elements are named") {
  DrawList ok;
  CHECK(validate(ok).ok());

  DrawList list;
  TexturedQuad quad;
  quad.width = 2;
  quad.height = 2;
  quad.rgba.resize(12);
  list.quads.push_back(quad);
  Status status = validate(list);
  REQUIRE_FALSE(status.ok());
  CHECK(contains(status.error().message, "quads[0]"));
  CHECK(contains(status.error().message, "12 bytes"));

  list = {};
  list.arrows.resize(2);
  list.arrows[1].origins = {{0, 0, 0}};
  status = validate(list);
  REQUIRE_FALSE(status.ok());
  CHECK(contains(status.error().message, "arrows[1]"));

  list = {};
  Mesh mesh;
  mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  mesh.indices = {0, 1, 3};
  list.meshes.push_back(mesh);
  status = validate(list);
  REQUIRE_FALSE(status.ok());
  CHECK(contains(status.error().message, "meshes[0]: indices[2] is 3"));

  list = {};
  list.lines.push_back(LineBatch{{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, {{1, 0, 0, 1}, {0, 1, 0, 1}}});
  status = validate(list);
  REQUIRE_FALSE(status.ok());
  CHECK(contains(status.error().message, "lines[0]: has 2 colors for 3 points"));

  list = {};
  list.camera.near_plane = 0;
  CHECK_FALSE(validate(list).ok());
}
