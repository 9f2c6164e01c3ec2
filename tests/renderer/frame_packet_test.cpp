// Draw list to GPU records, on the CPU: arrow lengths, line segments, normals, legend
// layout and the checks of validate().
#include <doctest/doctest.h>

#include <string>

#include "frame_packet.h"
#include "nudge/render/draw_list.h"
#include "nudge/render/legend_layout.h"

using namespace nudge::render;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

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
  std::vector<Legend> legends = {{ColorMap::Diverging, -1, 1, "force"},
                                 {ColorMap::Sequential, 0, 250, "speed (m/s)"}};
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
