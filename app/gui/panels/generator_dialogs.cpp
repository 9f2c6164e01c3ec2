// Edit > Add's generators as dialogs: a chain, a cloth sheet (membrane triangles with
// bending edges, or springs), a soft block of springs, a walker robot, and soft bodies of
// tets (a box, a ball, a mesh imported from a TetGen or Gmsh file), each with its place,
// size, resolution, material and pins. Add queues the edit (studio/scene_edits.h), which
// refuses what it cannot build with a message the studio shows; the dialog also greys
// Add out with a short reason. The import is tried when Add is pressed, so that a file
// that cannot be read is reported in the dialog and nothing changes. Each dialog
// remembers its values between openings, except its place, which starts at the drop
// point (above the middle of what is shown).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include "gui/panels/panels.h"
#include "gui/theme.h"
#include "studio/scene_edits.h"

namespace nudge::gui {

namespace {

namespace edits = studio::edits;
using edits::Vec3;
using G = Popups::Generator;

struct ChainValues {
  Vec3 start{0, 0, 0};
  Vec3 span{1, 0, 0};  // from the first particle to the last (m)
  int links = 10;
  edits::Material material{0.05, 500, 0.05};
  bool pin_first = true, pin_last = false;
};
struct ClothValues {
  Vec3 centre{0, 0, 0};
  double size[2] = {1, 1};  // width (x) and height (y), m
  int resolution[2] = {12, 12};
  int kind = 0;  // 0: membrane (triangles and bending edges), 1: springs
  edits::MembraneMaterial membrane;
  edits::Material material{0.01, 400, 0.05};
  int pins = 1;  // 0: none, 1: the top row, 2: the top corners
};
struct SoftBoxValues {
  Vec3 centre{0, 0, 0};
  Vec3 size{0.3, 0.3, 0.3};
  int cells[3] = {3, 3, 3};
  edits::SoftMaterial material;
};
struct SoftBallValues {
  Vec3 centre{0, 0, 0};
  double radius = 0.2;
  int resolution = 4;
  edits::SoftMaterial material;
};
struct ImportValues {
  char path[1024] = "";
  double scale = 1;
  Vec3 offset{0, 0, 0};
  edits::SoftMaterial material;
};
struct BlockValues {
  Vec3 centre{0, 0, 0};
  Vec3 size{0.3, 0.3, 0.3};
  int resolution[3] = {4, 4, 4};
  edits::Material material{0.05, 2000, 0.5};
  bool pin_bottom = false;
};
struct PointBlockValues {
  bool from_mesh = false;  // fill a closed OBJ mesh instead of the box
  Vec3 centre{0, 0, 0};
  Vec3 size{0.2, 0.1, 0};  // z 0: a 2D slice
  char path[512] = "";     // the mesh
  double scale = 1;
  bool slice = false;  // the mesh's cross-section at the centre's z (2D)
  edits::MaterialBlock block;
};
struct WalkerValues {
  Vec3 corner{0, 0, 0};  // the left foot's outer corner (m)
  edits::WalkerShape shape;
  edits::Material material{0.1, 300, 0.8};  // scenes/walker.json's
};

// What the dialogs remember between openings.
ChainValues g_chain;
ClothValues g_cloth;
BlockValues g_block;
WalkerValues g_walker;
SoftBoxValues g_soft_box;
SoftBallValues g_soft_ball;
ImportValues g_import;
PointBlockValues g_points[3];  // liquid, sand, soft solid
std::string g_add_error;       // why the last Add failed (the import), shown until the dialog closes

constexpr const char* kTitles[] = {"",
                                   "Add a Chain",
                                   "Add a Cloth Sheet",
                                   "Add a Soft Block",
                                   "Add a Walker Robot",
                                   "Add a Soft Box",
                                   "Add a Soft Ball",
                                   "Import a Tet Mesh",
                                   "Add Liquid",
                                   "Add Sand",
                                   "Add a Soft Solid"};

const char* title(G g) { return kTitles[static_cast<int>(g)]; }

bool finite(const Vec3& v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

// A labelled row of a two-column table: `count` numbers (double or int) and their unit.
template <class T>
void field(const char* label, T* values, int count, const char* unit, const char* tooltip = nullptr) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  if (tooltip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  ImGui::TableNextColumn();
  ImGui::PushID(label);
  ImGui::SetNextItemWidth(70.0f * float(count));
  if constexpr (std::is_same_v<T, double>)
    ImGui::InputScalarN("##v", ImGuiDataType_Double, values, count, nullptr, nullptr, "%.6g");
  else
    ImGui::InputScalarN("##v", ImGuiDataType_S32, values, count);
  if (tooltip) ImGui::SetItemTooltip("%s", tooltip);  // on the numbers too, not only the label
  if (unit && *unit) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", unit);
  }
  ImGui::PopID();
}

void check_row(const char* label, bool* value,
               const char* tooltip = "pinned particles stay where they are placed: a fixed support") {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::TableNextColumn();
  ImGui::PushID(label);
  ImGui::Checkbox("##v", value);
  ImGui::SetItemTooltip("%s", tooltip);
  ImGui::PopID();
}

// A row with a file's path typed in (relative to where nudge runs); typing clears the
// last Add's error.
void path_row(char* path, std::size_t size, const char* what) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("file");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", what);
  ImGui::TableNextColumn();
  ImGui::SetNextItemWidth(300.0f);
  if (ImGui::InputText("##path", path, size)) g_add_error.clear();
  ImGui::SetItemTooltip("%s; relative to where nudge runs", what);
}

bool begin_fields() {
  if (!ImGui::BeginTable("fields", 2, ImGuiTableFlags_SizingFixedFit)) return false;
  ImGui::TableSetupColumn("name", ImGuiTableColumnFlags_WidthFixed, 170.0f);
  ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthFixed, 300.0f);
  return true;
}

void material_fields(edits::Material& m) {
  field("particle mass", &m.particle_mass, 1, "kg", "the mass of each particle");
  field("stiffness", &m.stiffness, 1, "N/m", "of each spring");
  field("damping", &m.damping, 1, "N s/m", "of each spring");
}

void membrane_fields(edits::MembraneMaterial& m) {
  field("particle mass", &m.particle_mass, 1, "kg", "the mass of each particle");
  field("stiffness", &m.stiffness, 1, "N/m", "each triangle's shear stiffness (triangle_stiffness)");
  field("area stiffness", &m.area_stiffness, 1, "N/m", "each triangle's resistance to a change of area");
  field("damping", &m.damping, 1, "N s/m", "each triangle's");
  field("bending stiffness", &m.bending_stiffness, 1, "N m/rad", "per unit length of each interior edge");
}

void soft_fields(edits::SoftMaterial& m) {
  field("density", &m.density, 1, "kg/m^3", "the particles' masses are the tets' mass, lumped");
  field("Young's modulus", &m.young, 1, "Pa", "stiffness; turned into each tet's k_mu, k_lambda");
  field("Poisson's ratio", &m.poisson, 1, "", "in (-1, 0.5): near 0.5 keeps the volume");
  field("damping", &m.damping, 1, "Pa s", "each tet's strain-rate damping (k_damp)");
}

std::string membrane_problem(const edits::MembraneMaterial& m) {
  if (!(std::isfinite(m.particle_mass) && m.particle_mass > 0)) return "the particle mass must be > 0";
  for (double k : {m.stiffness, m.area_stiffness, m.damping, m.bending_stiffness})
    if (!(std::isfinite(k) && k >= 0)) return "the stiffnesses and damping must be >= 0";
  return {};
}

std::string soft_problem(const edits::SoftMaterial& m) {
  if (!(std::isfinite(m.density) && m.density > 0)) return "the density must be > 0";
  if (!(std::isfinite(m.young) && m.young > 0)) return "Young's modulus must be > 0";
  if (!(std::isfinite(m.poisson) && m.poisson > -1 && m.poisson < 0.5)) return "Poisson's ratio must be in (-1, 0.5)";
  if (!(std::isfinite(m.damping) && m.damping >= 0)) return "the damping must be >= 0";
  return {};
}

// Why the material cannot be built, or empty.
std::string material_problem(const edits::Material& m) {
  if (!(std::isfinite(m.particle_mass) && m.particle_mass > 0)) return "the particle mass must be > 0";
  if (!(std::isfinite(m.stiffness) && m.stiffness >= 0)) return "the stiffness must be >= 0";
  if (!(std::isfinite(m.damping) && m.damping >= 0)) return "the damping must be >= 0";
  return {};
}

std::string too_many(long long particles) {
  if (particles <= edits::kMaxGeneratedParticles) return {};
  return std::to_string(particles) + " particles; at most " + std::to_string(edits::kMaxGeneratedParticles);
}

// The new particles, selected once the edit has applied.
Selection new_particles(const Scene& before, const Scene& after) {
  Selection sel{Selection::Kind::Particle, before.particle_count(), {}};
  for (int i = before.particle_count() + 1; i < after.particle_count(); ++i) sel.others.push_back(i);
  return sel;
}

// Pins `which` (indices counted from the generator's first particle) after `made`.
Result<Scene> pin_new(Result<Scene> made, int first, const std::vector<int>& which) {
  if (!made || which.empty()) return made;
  std::vector<int> absolute;
  for (int i : which) absolute.push_back(first + i);
  return edits::set_pinned(*made, absolute, true);
}

// What each dialog builds: the label of its step, the edit, and why it cannot (empty: it
// can). try_first: Add tries the edit on the scene and, when it fails, shows why in the
// dialog and keeps it open (an import, whose file only the edit reads).
struct Build {
  std::string label;
  std::function<Result<Scene>(const Scene&)> apply;
  std::string problem;
  bool try_first = false;
};

Build chain_dialog() {
  ChainValues& v = g_chain;
  if (begin_fields()) {
    field("start", v.start.data(), 3, "m", "the first particle");
    field("span", v.span.data(), 3, "m",
          "from the first particle to the last: (1, 0, 0) lies along +x, (0, -1, 0) hangs");
    field("links", &v.links, 1, "", "springs in the chain; it has one particle more");
    material_fields(v.material);
    check_row("pin the first particle", &v.pin_first);
    check_row("pin the last particle", &v.pin_last);
    ImGui::EndTable();
  }
  Build b;
  const ChainValues c = v;
  b.label = "add a chain of " + std::to_string(c.links) + (c.links == 1 ? " link" : " links");
  b.apply = [c](const Scene& s) {
    const Vec3 end{c.start[0] + c.span[0], c.start[1] + c.span[1], c.start[2] + c.span[2]};
    const int first = s.particle_count();
    return pin_new(edits::add_chain(s, c.start, end, c.links, c.material, c.pin_first), first,
                   c.pin_last ? std::vector<int>{c.links} : std::vector<int>{});
  };
  const double length = std::sqrt(c.span[0] * c.span[0] + c.span[1] * c.span[1] + c.span[2] * c.span[2]);
  if (c.links < 1)
    b.problem = "a chain needs 1 link at least";
  else if (!finite(c.start) || !finite(c.span))
    b.problem = "the start and span must be finite";
  else if (!(length > 0))
    b.problem = "the span must not be zero";
  else if (b.problem = material_problem(c.material); b.problem.empty())
    b.problem = too_many(c.links + 1LL);
  return b;
}

Build cloth_dialog() {
  ClothValues& v = g_cloth;
  if (begin_fields()) {
    field("centre", v.centre.data(), 3, "m", "the middle of the sheet; it hangs in the x-y plane, facing +z");
    field("width, height", v.size, 2, "m", "along x and y");
    field("particles", v.resolution, 2, "", "across (x) and up (y), 2 or more each");
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("held by");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "membrane: triangles with a bending edge on each interior edge; springs: along the rows, "
          "columns and cell diagonals");
    ImGui::TableNextColumn();
    ImGui::RadioButton("membrane + bending", &v.kind, 0);
    ImGui::SetItemTooltip("continuum triangles (as Warp's cloth): stretch, shear and bending are separate parameters");
    ImGui::SameLine();
    ImGui::RadioButton("springs", &v.kind, 1);
    ImGui::SetItemTooltip("a mass-spring lattice: simpler, one stiffness for everything");
    if (v.kind == 0)
      membrane_fields(v.membrane);
    else
      material_fields(v.material);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("pin");
    ImGui::TableNextColumn();
    ImGui::RadioButton("none", &v.pins, 0);
    ImGui::SetItemTooltip("nothing holds the sheet: it falls");
    ImGui::SameLine();
    ImGui::RadioButton("top row", &v.pins, 1);
    ImGui::SetItemTooltip("the top row of particles stays put: a curtain");
    ImGui::SameLine();
    ImGui::RadioButton("top corners", &v.pins, 2);
    ImGui::SetItemTooltip("the two top corners stay put: the sheet sags between them");
    ImGui::EndTable();
  }
  Build b;
  const ClothValues c = v;
  const int nu = c.resolution[0], nv = c.resolution[1];
  b.label = "add a " + std::to_string(nu) + " x " + std::to_string(nv) + " cloth sheet";
  b.apply = [c, nu, nv](const Scene& s) {
    const Vec3 corner{c.centre[0] - c.size[0] / 2, c.centre[1] - c.size[1] / 2, c.centre[2]};
    const int first = s.particle_count();
    // The top row is the last: particles (nv - 1) nu to nv nu - 1.
    Result<Scene> made =
        c.kind == 0 ? edits::add_membrane_cloth(s, corner, c.size[0], c.size[1], nu, nv, c.membrane, c.pins == 1)
                    : edits::add_cloth(s, corner, c.size[0], c.size[1], nu, nv, c.material, c.pins == 1);
    return pin_new(std::move(made), first,
                   c.pins == 2 ? std::vector<int>{(nv - 1) * nu, nv * nu - 1} : std::vector<int>{});
  };
  if (nu < 2 || nv < 2)
    b.problem = "a cloth needs 2 x 2 particles at least";
  else if (!finite(c.centre))
    b.problem = "the centre must be finite";
  else if (!(c.size[0] > 0 && c.size[1] > 0 && std::isfinite(c.size[0]) && std::isfinite(c.size[1])))
    b.problem = "the width and height must be > 0";
  else if (b.problem = c.kind == 0 ? membrane_problem(c.membrane) : material_problem(c.material); b.problem.empty())
    b.problem = too_many(1LL * nu * nv);
  return b;
}

Build block_dialog() {
  BlockValues& v = g_block;
  if (begin_fields()) {
    field("centre", v.centre.data(), 3, "m", "the middle of the block");
    field("size", v.size.data(), 3, "m", "along x, y and z");
    field("particles", v.resolution, 3, "", "along x, y and z, 2 or more each");
    material_fields(v.material);
    check_row("pin the bottom layer", &v.pin_bottom);
    ImGui::EndTable();
  }
  Build b;
  const BlockValues c = v;
  const int nx = c.resolution[0], ny = c.resolution[1], nz = c.resolution[2];
  b.label = "add a " + std::to_string(nx) + " x " + std::to_string(ny) + " x " + std::to_string(nz) + " soft block";
  b.apply = [c, nx, ny, nz](const Scene& s) {
    const Vec3 corner{c.centre[0] - c.size[0] / 2, c.centre[1] - c.size[1] / 2, c.centre[2] - c.size[2] / 2};
    const int first = s.particle_count();
    std::vector<int> bottom;  // y = 0: particle x + nx (0 + ny z)
    if (c.pin_bottom)
      for (int z = 0; z < nz; ++z)
        for (int x = 0; x < nx; ++x) bottom.push_back(x + nx * ny * z);
    return pin_new(edits::add_lattice(s, corner, c.size, nx, ny, nz, c.material), first, bottom);
  };
  if (nx < 2 || ny < 2 || nz < 2)
    b.problem = "a block needs 2 x 2 x 2 particles at least";
  else if (!finite(c.centre))
    b.problem = "the centre must be finite";
  else if (!(finite(c.size) && c.size[0] > 0 && c.size[1] > 0 && c.size[2] > 0))
    b.problem = "the size must be > 0";
  else if (b.problem = material_problem(c.material); b.problem.empty())
    b.problem = too_many(1LL * nx * ny * nz);
  return b;
}

Build walker_dialog() {
  WalkerValues& v = g_walker;
  edits::WalkerShape& w = v.shape;
  if (begin_fields()) {
    field("corner", v.corner.data(), 3, "m", "the left foot's outer corner; the robot stands in the x-y plane");
    field("body width", &w.body_cols, 1, "cells", "the body's width in lattice cells");
    field("body height", &w.body_rows, 1, "cells", "the body's height in lattice cells, above the legs");
    field("legs", &w.legs, 1, "", "at most (body width + 1) / 2, so that they stand a column apart at least");
    field("leg height", &w.leg_rows, 1, "cells", "each leg's height in lattice cells");
    field("cell size", &w.cell_size, 1, "m", "the side of one square cell of the lattice");
    field("actuation", &w.actuation, 1, "", "a muscle's rest length scales by 1 + actuation x control");
    material_fields(v.material);
    ImGui::EndTable();
  }
  ImGui::TextDisabled("Each leg's two sides are muscles on two new control channels (%d in all).", 2 * w.legs);
  Build b;
  const WalkerValues c = v;
  b.label = "add a walker robot (" + std::to_string(w.body_cols) + " x " + std::to_string(w.body_rows) + " cells, " +
            std::to_string(w.legs) + (w.legs == 1 ? " leg)" : " legs)");
  b.apply = [c](const Scene& s) { return edits::add_walker(s, c.corner, c.shape, c.material); };
  if (w.body_cols < 1 || w.body_rows < 1 || w.leg_rows < 1)
    b.problem = "the body and legs need 1 cell at least";
  else if (w.legs < 1)
    b.problem = "a walker needs 1 leg at least";
  else if (w.legs > (w.body_cols + 1) / 2)
    b.problem = "a body " + std::to_string(w.body_cols) + " cells wide holds " + std::to_string((w.body_cols + 1) / 2) +
                " legs at most";
  else if (!(std::isfinite(w.cell_size) && w.cell_size > 0))
    b.problem = "the cell size must be > 0";
  else if (!std::isfinite(w.actuation))
    b.problem = "the actuation must be finite";
  else if (!finite(c.corner))
    b.problem = "the corner must be finite";
  else if (b.problem = material_problem(c.material); b.problem.empty())
    b.problem = too_many((w.body_cols + 1LL) * (w.body_rows + 1LL) + 2LL * w.legs * w.leg_rows);
  return b;
}

Build soft_box_dialog() {
  SoftBoxValues& v = g_soft_box;
  if (begin_fields()) {
    field("centre", v.centre.data(), 3, "m", "the middle of the box");
    field("size", v.size.data(), 3, "m", "along x, y and z");
    field("cells", v.cells, 3, "", "along x, y and z, 1 or more each; five tets a cell");
    soft_fields(v.material);
    ImGui::EndTable();
  }
  Build b;
  const SoftBoxValues c = v;
  b.label = "add a " + std::to_string(c.cells[0]) + " x " + std::to_string(c.cells[1]) + " x " +
            std::to_string(c.cells[2]) + " soft box";
  b.apply = [c](const Scene& s) {
    const Vec3 corner{c.centre[0] - c.size[0] / 2, c.centre[1] - c.size[1] / 2, c.centre[2] - c.size[2] / 2};
    return edits::add_soft_box(s, corner, c.size, {c.cells[0], c.cells[1], c.cells[2]}, c.material);
  };
  if (c.cells[0] < 1 || c.cells[1] < 1 || c.cells[2] < 1)
    b.problem = "a box needs 1 cell along each axis at least";
  else if (!finite(c.centre))
    b.problem = "the centre must be finite";
  else if (!(finite(c.size) && c.size[0] > 0 && c.size[1] > 0 && c.size[2] > 0))
    b.problem = "the size must be > 0";
  else if (b.problem = soft_problem(c.material); b.problem.empty())
    b.problem = too_many((std::min(c.cells[0], 100000) + 1LL) * (std::min(c.cells[1], 100000) + 1LL) *
                         (std::min(c.cells[2], 100000) + 1LL));
  return b;
}

Build soft_ball_dialog() {
  SoftBallValues& v = g_soft_ball;
  if (begin_fields()) {
    field("centre", v.centre.data(), 3, "m", "the middle of the ball");
    field("radius", &v.radius, 1, "m", "of the sphere its surface approximates");
    field("resolution", &v.resolution, 1, "cells", "across the ball, 1 or more; six tets a cell");
    soft_fields(v.material);
    ImGui::EndTable();
  }
  Build b;
  const SoftBallValues c = v;
  b.label = "add a soft ball";
  b.apply = [c](const Scene& s) { return edits::add_soft_ball(s, c.centre, c.radius, c.resolution, c.material); };
  const long long side = std::min(c.resolution, 100000) + 1LL;
  if (c.resolution < 1)
    b.problem = "a ball needs 1 cell across at least";
  else if (!finite(c.centre))
    b.problem = "the centre must be finite";
  else if (!(std::isfinite(c.radius) && c.radius > 0))
    b.problem = "the radius must be > 0";
  else if (b.problem = soft_problem(c.material); b.problem.empty())
    b.problem = too_many(side * side * side);
  return b;
}

Build import_dialog() {
  ImportValues& v = g_import;
  if (begin_fields()) {
    path_row(v.path, sizeof v.path, "a TetGen .node/.ele pair (either file, or their stem) or a Gmsh .msh 2.2 file");
    field("scale", &v.scale, 1, "", "the file's units to metres, about its origin");
    field("offset", v.offset.data(), 3, "m", "added after scaling");
    soft_fields(v.material);
    ImGui::EndTable();
  }
  Build b;
  const ImportValues c = v;
  const std::filesystem::path path = c.path;
  b.label = "import " + path.filename().string();
  b.apply = [c, path](const Scene& s) { return edits::import_tet_mesh(s, path, c.scale, c.offset, c.material); };
  b.try_first = true;
  if (std::strlen(c.path) == 0)
    b.problem = "name a .node, .ele or .msh file";
  else if (!(std::isfinite(c.scale) && c.scale > 0))
    b.problem = "the scale must be > 0";
  else if (!finite(c.offset))
    b.problem = "the offset must be finite";
  else
    b.problem = soft_problem(c.material);
  return b;
}

// Material points filling a box (the kind the menu item chose).
Build point_block_dialog(edits::MaterialBlock::Kind kind) {
  using K = edits::MaterialBlock::Kind;
  PointBlockValues& v = g_points[static_cast<int>(kind)];
  v.block.kind = kind;
  if (ImGui::RadioButton("a box", !v.from_mesh)) v.from_mesh = false, g_add_error.clear();
  ImGui::SameLine();
  if (ImGui::RadioButton("a closed mesh (OBJ)", v.from_mesh)) v.from_mesh = true, g_add_error.clear();
  ImGui::SetItemTooltip("the solid a closed surface bounds: every edge shared by two faces");
  if (begin_fields()) {
    if (v.from_mesh) {
      path_row(v.path, sizeof v.path, "a Wavefront .obj file with faces (a closed surface)");
      field("scale", &v.scale, 1, "", "the file's units to metres, about its origin");
      field("offset", v.centre.data(), 3, "m", "where the file's origin goes");
      check_row("2D slice", &v.slice,
                "fill the mesh's cross-section in the x-y plane at the offset's z (a 2D scene does)");
    } else {
      field("centre", v.centre.data(), 3, "m", "the middle of the box the points fill");
      field("size", v.size.data(), 3, "m", "the box's sides; a z of 0 makes a 2D slice (x-y plane)");
    }
    field("density", &v.block.density, 1, "kg/m^3", "per metre of depth in 2D");
    if (kind == K::Liquid) {
      field("bulk modulus", &v.block.bulk, 1, "Pa", "how hard it resists being squeezed");
      field("viscosity", &v.block.viscosity, 1, "Pa s", "how thick it is");
    } else {
      field("Young's modulus", &v.block.young, 1, "Pa", "stiffness");
      field("Poisson's ratio", &v.block.poisson, 1, "", "in (-1, 0.5)");
      if (kind == K::Sand)
        field("friction angle", &v.block.friction_angle, 1, "deg", "the steepest slope a heap keeps");
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled(
      "Two points per grid cell along each axis. A scene without material points gets\n"
      "a grid around the box or the mesh (twice its largest side; 64 cells, 32 in 3D);\n"
      "otherwise it must lie inside the scene's grid.");
  Build b;
  const PointBlockValues c = v;
  b.label = std::string("add ") + (kind == K::Liquid ? "liquid" : kind == K::Sand ? "sand" : "a soft solid");
  b.try_first = true;  // the edit checks the box or the mesh against the scene's grid
  if (c.from_mesh) {
    const std::filesystem::path path = c.path;
    b.label += " in " + path.filename().string();
    b.apply = [c, path](const Scene& s) {
      return edits::add_material_mesh(s, path, c.scale, c.centre, c.slice, c.block);
    };
    if (std::strlen(c.path) == 0)
      b.problem = "name an .obj file";
    else if (!(std::isfinite(c.scale) && c.scale > 0))
      b.problem = "the scale must be > 0";
    else if (!finite(c.centre))
      b.problem = "the offset must be finite";
    return b;
  }
  b.apply = [c](const Scene& s) {
    const Vec3 corner{c.centre[0] - c.size[0] / 2, c.centre[1] - c.size[1] / 2, c.centre[2] - c.size[2] / 2};
    return edits::add_material_block(s, corner, c.size, c.block);
  };
  if (!finite(c.centre))
    b.problem = "the centre must be finite";
  else if (!(finite(c.size) && c.size[0] > 0 && c.size[1] > 0 && c.size[2] >= 0))
    b.problem = "the size must be > 0 along x and y (z 0 for 2D)";
  return b;
}

// Where a dialog's place starts when it opens: the drop point (its corner for the walker).
void place_at_drop_point(const StudioState& state, G g) {
  const Vec3 at = drop_point(state);
  switch (g) {
    case G::Chain: g_chain.start = at; break;
    case G::Cloth: g_cloth.centre = at; break;
    case G::SoftBlock: g_block.centre = at; break;
    case G::Walker: g_walker.corner = at; break;
    case G::SoftBox: g_soft_box.centre = at; break;
    case G::SoftBall: g_soft_ball.centre = at; break;
    case G::ImportTetMesh: g_import.offset = at; break;
    case G::Liquid:
    case G::Sand:
    case G::SoftSolid: {
      // Inside the scene's grid when it has one (its middle), else at the drop point.
      PointBlockValues& v = g_points[static_cast<int>(g) - static_cast<int>(G::Liquid)];
      const MaterialPoints& mp = state.document.scene().material_points;
      if (mp.enabled()) {
        for (int k = 0; k < 3; ++k) v.centre[size_t(k)] = mp.origin[k] + mp.size / 2;
        if (mp.dims == 2) v.centre[2] = mp.origin[2], v.size[2] = 0;
        for (int k = 0; k < mp.dims; ++k) v.size[size_t(k)] = std::min(v.size[size_t(k)], mp.size / 4);
      } else {
        v.centre = at;
      }
      break;
    }
    case G::None: break;
  }
}

G g_open = G::None;  // the dialog being shown

}  // namespace

void draw_generator_dialogs(const StudioState& state, UiState& ui, CommandQueue& commands) {
  if (ui.popups.generator != G::None) {
    g_open = ui.popups.generator;
    ui.popups.generator = G::None;
    place_at_drop_point(state, g_open);
    g_add_error.clear();
    ImGui::OpenPopup(title(g_open));
  }
  if (g_open == G::None) return;
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(title(g_open), nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    g_open = G::None;  // closed
    return;
  }
  Build build;
  switch (g_open) {
    case G::Chain: build = chain_dialog(); break;
    case G::Cloth: build = cloth_dialog(); break;
    case G::SoftBlock: build = block_dialog(); break;
    case G::Walker: build = walker_dialog(); break;
    case G::SoftBox: build = soft_box_dialog(); break;
    case G::SoftBall: build = soft_ball_dialog(); break;
    case G::ImportTetMesh: build = import_dialog(); break;
    case G::Liquid: build = point_block_dialog(edits::MaterialBlock::Kind::Liquid); break;
    case G::Sand: build = point_block_dialog(edits::MaterialBlock::Kind::Sand); break;
    case G::SoftSolid: build = point_block_dialog(edits::MaterialBlock::Kind::SoftSolid); break;
    case G::None: break;
  }
  ImGui::Separator();
  const bool can_add = build.problem.empty() && build.apply;
  if (!can_add) ImGui::BeginDisabled();
  const bool add = ImGui::Button("Add", ImVec2(110, 0));
  ImGui::SetItemTooltip("Add it to the scene: one step of the history (Ctrl+Z takes it away)");
  if (add) {
    Result<Scene> tried = build.try_first ? build.apply(state.document.scene()) : Result<Scene>(Scene{});
    if (tried) {
      queue_edit(commands, build.label, build.apply, new_particles);
      ImGui::CloseCurrentPopup();
    } else {
      g_add_error = tried.error().message;  // nothing changes; say why here
    }
  }
  if (!can_add) ImGui::EndDisabled();
  ImGui::SameLine();
  const bool cancel = ImGui::Button("Cancel", ImVec2(110, 0));
  ImGui::SetItemTooltip("Close without adding anything (Esc)");
  if (cancel || ImGui::IsKeyPressed(ImGuiKey_Escape)) ImGui::CloseCurrentPopup();
  if (!build.problem.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(theme::kWarningText, "%s", build.problem.c_str());
  }
  if (!g_add_error.empty()) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + 520.0f);
    ImGui::TextColored(theme::kWarningText, "%s", g_add_error.c_str());
    ImGui::PopTextWrapPos();
  }
  ImGui::EndPopup();
}

}  // namespace nudge::gui
