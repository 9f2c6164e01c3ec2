// The "material_points" section (nudge/material_points.h): the grid, the materials, and
// every point's position, material, channel and parameters; how it is read from a scene
// file, written back and checked. The materials' names, for messages and files.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "families/articulations/link_solid_shapes.h"
#include "io/scene_section.h"
#include "io/scene_sections.h"
#include "nudge/parameter_facts.h"

namespace nudge {

std::string_view material_model_name(MaterialModel model) {
  switch (model) {
    case MaterialModel::NeoHookean: return "neo_hookean";
    case MaterialModel::FixedCorotated: return "fixed_corotated";
    case MaterialModel::Liquid: return "liquid";
    case MaterialModel::Sand: return "sand";
  }
  return "neo_hookean";
}

std::optional<MaterialModel> material_model_from_name(std::string_view name) {
  for (MaterialModel m :
       {MaterialModel::NeoHookean, MaterialModel::FixedCorotated, MaterialModel::Liquid, MaterialModel::Sand})
    if (material_model_name(m) == name) return m;
  return std::nullopt;
}

namespace scene_io {

namespace {

constexpr const char* kSection = "material_points";
constexpr const char* kMaterials = "material_points.materials";
constexpr const char* kModels = "neo_hookean, fixed_corotated, liquid or sand";

constexpr const char* kFriction = "a friction coefficient >= 0, or < 0 for sticky";

// ---- Reading ----------------------------------------------------------------------

void read_vessels(const SceneReader& r, const Node& node, Scene& scene) {
  r.expect_array(node, "an array of vessels: {\"parts\", \"pivot\", \"axis\", \"channel\", ...}");
  for (std::size_t k = 0; k < node.size(); ++k) {
    const Node item = node.element(k);
    if (!item.json.is_object()) r.fail_found(item, "a vessel object with its \"parts\"");
    r.expect_object(item, {"name", "parts", "pivot", "axis", "angle", "channel", "gain", "friction"});
    MaterialVessel v;
    if (auto name = r.optional(item, "name")) v.name = r.string(*name, "a vessel name");
    const Node parts = r.required(item, "parts", "an array of collider shapes (box, sphere, capsule)");
    r.expect_array(parts, "an array of collider shapes (box, sphere, capsule)");
    if (parts.size() == 0) r.fail_found(parts, "at least one part");
    for (std::size_t p = 0; p < parts.size(); ++p) v.parts.push_back(r.read_collider(parts.element(p)));
    if (auto pivot = r.optional(item, "pivot")) {
      const std::array<double, 3> a = r.vec3(*pivot, "the hinge's point [x, y, z] (m)");
      std::copy(a.begin(), a.end(), v.pivot);
    }
    if (auto axis = r.optional(item, "axis")) r.unit_vector(*axis, r.vec3(*axis, "the hinge's axis [x, y, z]"), v.axis);
    if (auto channel = r.optional(item, "channel"))
      v.channel = static_cast<int>(r.integer(*channel, -1, std::max(scene.channels, 0) - 1,
                                             "-1 (fixed) or a channel in [0, " + std::to_string(scene.channels) + ")"));
    if (auto angle = r.optional(item, "angle")) v.angle = r.number(*angle, "the angle it starts at (rad)");
    if (auto gain = r.optional(item, "gain")) v.gain = r.number(*gain, "rad/s per unit of control");
    if (auto friction = r.optional(item, "friction")) v.friction = r.number(*friction, kFriction);
    scene.material_points.vessels.push_back(std::move(v));
  }
}

// One number for every point, or one per point.
std::vector<int> read_index_column(const SceneReader& r, const Node& section, const char* key, std::size_t count,
                                   long long lo, long long hi, int fallback, const std::string& expected) {
  const std::optional<Node> node = r.optional(section, key);
  if (!node) return std::vector<int>(count, fallback);
  if (!node->json.is_array()) return std::vector<int>(count, static_cast<int>(r.integer(*node, lo, hi, expected)));
  if (node->size() != count)
    r.fail_found(*node, "one number for every point or " + std::to_string(count) + " (one per point): " + expected);
  std::vector<int> values;
  for (std::size_t k = 0; k < count; ++k)
    values.push_back(static_cast<int>(r.integer(node->element(k), lo, hi, expected)));
  return values;
}

AfterShaping read_material_points(const SectionInput& in, Scene& scene) {
  if (!in.node) return {};
  const SceneReader& r = in.reader;
  const Node& node = *in.node;
  r.expect_object(node, section_keys(kSection, {"dimensions", "grid", "actuation", "materials", "position", "material",
                                                "channel", "vessels", "collider_friction"}));
  MaterialPoints& mp = scene.material_points;
  if (auto dims = r.optional(node, "dimensions"))
    mp.dims = static_cast<int>(r.integer(*dims, 2, 3, "2 (the x-y plane) or 3"));
  const Node grid = r.required(node, "grid", "the grid: {\"cells\", \"size\", ...}");
  r.expect_object(grid, {"cells", "origin", "size", "wall_cells", "wall_friction"});
  mp.cells =
      static_cast<int>(r.integer(r.required(grid, "cells", "cells per side"), 4, 1024, "cells per side in [4, 1024]"));
  mp.size = r.number(r.required(grid, "size", "the domain's side > 0 (m)"), "the domain's side > 0 (m)", positive);
  if (auto origin = r.optional(grid, "origin")) {
    const std::array<double, 3> o = r.vec3(*origin, "the domain's lowest corner [x, y, z] (m)");
    for (int k = 0; k < 3; ++k) mp.origin[k] = o[size_t(k)];
  }
  if (auto walls = r.optional(grid, "wall_cells"))
    mp.wall_cells = static_cast<int>(
        r.integer(*walls, 1, mp.cells / 2 - 1, "a wall depth in nodes, >= 1 and below half the cells"));
  if (auto friction = r.optional(grid, "wall_friction")) {
    const char* expected = "a friction coefficient >= 0, or < 0 for a sticky wall";
    if (friction->json.is_array()) {
      if (friction->size() != 6)
        r.fail_found(*friction, "one number, or 6 (x low, x high, y low, y high, z low, z high)");
      for (std::size_t k = 0; k < 6; ++k) mp.wall_friction[k] = r.number(friction->element(k), expected);
    } else {
      const double f = r.number(*friction, expected);
      for (double& w : mp.wall_friction) w = f;
    }
  }
  if (auto actuation = r.optional(node, "actuation"))
    mp.actuation = r.number(*actuation, "a muscle's pull per unit of control (Pa)");
  if (auto friction = r.optional(node, "collider_friction")) mp.collider_friction = r.number(*friction, kFriction);
  if (auto vessels = r.optional(node, "vessels")) read_vessels(r, *vessels, scene);

  const Node materials = r.required(node, "materials", "an array of materials: {\"model\", ...}");
  r.expect_array(materials, "an array of materials");
  if (materials.size() == 0) r.fail_found(materials, "at least one material");
  std::vector<std::vector<SceneReader::FieldValue>> fields;
  for (std::size_t m = 0; m < materials.size(); ++m) {
    const Node item = materials.element(m);
    if (!item.json.is_object()) r.fail_found(item, "a material object with a \"model\" (" + std::string(kModels) + ")");
    r.expect_object(item, section_keys(kMaterials, {"name", "model"}));
    ContinuumMaterial material;
    const Node model = r.required(item, "model", kModels);
    const std::optional<MaterialModel> parsed = material_model_from_name(r.string(model, kModels));
    if (!parsed) r.fail_found(model, kModels);
    material.model = *parsed;
    if (auto name = r.optional(item, "name")) material.name = r.string(*name, "a material name");
    mp.materials.push_back(material);
    fields.push_back(r.read_param_fields(item, kMaterials));
  }

  const Node position = r.required(node, "position", "an array of [x, y, z] positions (m), one per point");
  r.expect_array(position, "an array of [x, y, z] positions (m), one per point");
  if (position.size() == 0) r.fail_found(position, "at least one point");
  std::vector<double>& x = scene.params[ParamId::PointPosition].value;
  x.clear();
  for (std::size_t k = 0; k < position.size(); ++k) {
    const std::array<double, 3> p = r.vec3(position.element(k), "a position [x, y, z] (m)");
    x.insert(x.end(), p.begin(), p.end());
  }
  const std::size_t count = position.size();
  const long long materials_count = static_cast<long long>(mp.materials.size());
  mp.material = read_index_column(r, node, "material", count, 0, materials_count - 1, 0,
                                  "a material index in [0, " + std::to_string(materials_count) + ")");
  mp.channel = read_index_column(r, node, "channel", count, -1, std::max(scene.channels, 0) - 1, -1,
                                 "-1 (no muscle) or a channel in [0, " + std::to_string(scene.channels) + ")");
  r.read_param_columns(node, scene, kSection, count);
  return [fields](Scene& s) {
    for (std::size_t m = 0; m < fields.size(); ++m) SceneReader::store_param_fields(fields[m], s, m);
  };
}

// ---- Writing ----------------------------------------------------------------------

OrderedJson material_points_json(const Scene& scene) {
  const MaterialPoints& mp = scene.material_points;
  if (!mp.enabled()) return OrderedJson();
  OrderedJson j;
  j["dimensions"] = mp.dims;
  OrderedJson grid;
  grid["cells"] = mp.cells;
  grid["origin"] = {mp.origin[0], mp.origin[1], mp.origin[2]};
  grid["size"] = mp.size;
  grid["wall_cells"] = mp.wall_cells;
  grid["wall_friction"] = OrderedJson(std::vector<double>(mp.wall_friction, mp.wall_friction + 6));
  j["grid"] = grid;
  j["actuation"] = mp.actuation;
  OrderedJson materials = OrderedJson::array();
  for (std::size_t m = 0; m < mp.materials.size(); ++m) {
    OrderedJson item;
    if (!mp.materials[m].name.empty()) item["name"] = mp.materials[m].name;
    item["model"] = material_model_name(mp.materials[m].model);
    write_param_fields(item, scene, kMaterials, static_cast<int>(m));
    materials.push_back(item);
  }
  j["materials"] = materials;
  OrderedJson position = OrderedJson::array();
  const std::vector<double>& x = scene.params[ParamId::PointPosition].value;
  for (int p = 0; p < mp.count(); ++p)
    position.push_back({x[3 * size_t(p)], x[3 * size_t(p) + 1], x[3 * size_t(p) + 2]});
  j["position"] = position;
  j["material"] = mp.material;
  j["channel"] = mp.channel;
  j["collider_friction"] = mp.collider_friction;
  if (!mp.vessels.empty()) {
    OrderedJson vessels = OrderedJson::array();
    for (const MaterialVessel& v : mp.vessels) {
      OrderedJson item;
      if (!v.name.empty()) item["name"] = v.name;
      OrderedJson parts = OrderedJson::array();
      for (const ColliderShape& part : v.parts) parts.push_back(collider_json(part));
      item["parts"] = parts;
      item["pivot"] = {v.pivot[0], v.pivot[1], v.pivot[2]};
      item["axis"] = {v.axis[0], v.axis[1], v.axis[2]};
      item["angle"] = v.angle;
      item["channel"] = v.channel;
      item["gain"] = v.gain;
      item["friction"] = v.friction;
      vessels.push_back(item);
    }
    j["vessels"] = vessels;
  }
  write_param_columns(j, scene, kSection);
  return j;
}

// ---- Checking ---------------------------------------------------------------------

// A vessel's parts and hinge; on a 2D grid everything turns about z (and stays in the
// x-y plane).
Problem check_vessel(const MaterialVessel& v, int dims, int channels, const std::string& at) {
  if (v.parts.empty()) return at + ".parts: found none; expected at least one collider shape";
  for (size_t p = 0; p < v.parts.size(); ++p) {
    const std::string part = index_path(at + ".parts", static_cast<long long>(p));
    if (Problem problem = check_collider_shape(v.parts[p], part)) return problem;
    const ColliderShape& c = v.parts[p];
    if (dims == 2 && c.type == ColliderType::Plane && std::abs(c.normal[2]) > 1e-9)
      return found(index_path(part + ".normal", 2), c.normal[2], "0: a 2D grid's planes are lines of the x-y plane");
    if (dims == 2 && c.type != ColliderType::Plane &&
        (std::abs(c.orientation[0]) > 1e-9 || std::abs(c.orientation[1]) > 1e-9))
      return part + ".orientation: turns out of the x-y plane; expected a turn about z on a 2D grid ([0, 0, z, w])";
  }
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(v.pivot[k])) return found(index_path(at + ".pivot", k), v.pivot[k], "a finite number (m)");
  const double len = std::sqrt(v.axis[0] * v.axis[0] + v.axis[1] * v.axis[1] + v.axis[2] * v.axis[2]);
  if (!(std::abs(len - 1) <= 1e-6)) return at + ".axis: not of unit length; expected a unit axis [x, y, z]";
  if (dims == 2 && std::abs(std::abs(v.axis[2]) - 1) > 1e-9)
    return at + ".axis: not along z; expected [0, 0, 1] or [0, 0, -1] on a 2D grid";
  if (v.channel < -1 || v.channel >= channels)
    return found(at + ".channel", v.channel, "-1 (fixed) or a channel in [0, " + std::to_string(channels) + ")");
  if (!std::isfinite(v.angle)) return found(at + ".angle", v.angle, "a finite angle (rad)");
  if (!std::isfinite(v.gain)) return found(at + ".gain", v.gain, "a finite number (rad/s per unit of control)");
  if (!std::isfinite(v.friction)) return found(at + ".friction", v.friction, kFriction);
  return std::nullopt;
}

Problem check_material_points(const Scene& scene) {
  const MaterialPoints& mp = scene.material_points;
  if (!mp.enabled()) return std::nullopt;
  const std::string at = kSection;
  if (mp.dims != 2 && mp.dims != 3) return found(at + ".dimensions", mp.dims, "2 or 3");
  // A 2D grid's masses are per unit depth; a body's are not.
  if (mp.dims == 2 && !scene.bodies.empty())
    return at + ".dimensions: found 2 with " + std::to_string(scene.bodies.size()) +
           " rigid bodies; bodies meet material points in 3D only (set \"dimensions\": 3, or remove the bodies)";
  if (mp.dims == 2 && has_solid_link_shapes(scene.articulations))
    return at +
           ".dimensions: found 2 with articulations whose links collide; links meet material points in 3D only"
           " (set \"dimensions\": 3, or mark the links' shapes \"collides\": false)";
  if (mp.cells < 4 || mp.cells > 1024) return found(at + ".grid.cells", mp.cells, "cells per side in [4, 1024]");
  if (!(mp.size > 0) || !std::isfinite(mp.size)) return found(at + ".grid.size", mp.size, "a side > 0 (m)");
  if (mp.wall_cells < 1 || 2 * mp.wall_cells >= mp.cells)
    return found(at + ".grid.wall_cells", mp.wall_cells, "a wall depth >= 1 and below half the cells");
  for (int k = 0; k < 6; ++k)
    if (!std::isfinite(mp.wall_friction[k]))
      return found(index_path(at + ".grid.wall_friction", k), mp.wall_friction[k], "a finite number");
  if (!std::isfinite(mp.actuation)) return found(at + ".actuation", mp.actuation, "a finite pull per unit (Pa)");
  if (!std::isfinite(mp.collider_friction)) return found(at + ".collider_friction", mp.collider_friction, kFriction);
  for (size_t k = 0; k < mp.vessels.size(); ++k)
    if (Problem p = check_vessel(mp.vessels[k], mp.dims, scene.channels,
                                 index_path(at + ".vessels", static_cast<long long>(k))))
      return p;
  if (mp.materials.empty()) return at + ".materials: found none; expected at least one";
  const int n = mp.count();
  if (mp.channel.size() != size_t(n))
    return at + ".channel: found " + std::to_string(mp.channel.size()) + "; expected one per point (" +
           std::to_string(n) + ")";
  for (size_t m = 0; m < mp.materials.size(); ++m) {
    const std::string item = index_path(at + ".materials", static_cast<long long>(m));
    const double e = scene.params[ParamId::MaterialYoungsModulus].value[m];
    const double nu = scene.params[ParamId::MaterialPoissonRatio].value[m];
    switch (mp.materials[m].model) {
      case MaterialModel::FixedCorotated:
      case MaterialModel::NeoHookean:
        if (!(e > 0)) return found(item + ".youngs_modulus", e, "a Young's modulus > 0 (Pa) for a solid");
        if (!(nu > -1 && nu < 0.5)) return found(item + ".poisson_ratio", nu, "a Poisson ratio in (-1, 0.5)");
        break;
      case MaterialModel::Sand: {
        if (!(e > 0)) return found(item + ".youngs_modulus", e, "a Young's modulus > 0 (Pa) for sand");
        if (!(nu > -1 && nu < 0.5)) return found(item + ".poisson_ratio", nu, "a Poisson ratio in (-1, 0.5)");
        const double phi = scene.params[ParamId::MaterialFrictionAngle].value[m];
        if (!(phi >= 0 && phi < 90)) return found(item + ".friction_angle", phi, "a friction angle in [0, 90) degrees");
        break;
      }
      case MaterialModel::Liquid: {
        const double k = scene.params[ParamId::MaterialBulkModulus].value[m];
        if (!(k > 0)) return found(item + ".bulk_modulus", k, "a bulk modulus > 0 (Pa) for a liquid");
        break;
      }
    }
  }
  // Every point inside the grid, clear of its outermost node (its stencil stays on the grid).
  const std::vector<double>& x = scene.params[ParamId::PointPosition].value;
  const std::vector<double>& v = scene.params[ParamId::PointVelocity].value;
  const double dx = mp.dx();
  for (int p = 0; p < n; ++p) {
    const std::string point = index_path(at + ".position", p);
    if (mp.material[size_t(p)] < 0 || mp.material[size_t(p)] >= int(mp.materials.size()))
      return found(index_path(at + ".material", p), mp.material[size_t(p)],
                   "a material index in [0, " + std::to_string(mp.materials.size()) + ")");
    if (mp.channel[size_t(p)] < -1 || mp.channel[size_t(p)] >= scene.channels)
      return found(index_path(at + ".channel", p), mp.channel[size_t(p)],
                   "-1 (no muscle) or a channel in [0, " + std::to_string(scene.channels) + ")");
    for (int k = 0; k < mp.dims; ++k) {
      const double rel = (x[3 * size_t(p) + size_t(k)] - mp.origin[k]) / dx;
      if (!(rel >= 1.0 && rel <= mp.cells - 2.0))
        return found(index_path(point, k), x[3 * size_t(p) + size_t(k)],
                     "a coordinate inside the grid, one cell clear of its edges ([" + number_text(mp.origin[k] + dx) +
                         ", " + number_text(mp.origin[k] + mp.size - 2 * dx) + "])");
    }
    if (mp.dims == 2 && (x[3 * size_t(p) + 2] != mp.origin[2] || v[3 * size_t(p) + 2] != 0))
      return point + ": found z = " + number_text(x[3 * size_t(p) + 2]) +
             " (or a z velocity); expected the x-y plane of a 2D grid (z = origin's, no z velocity)";
  }
  return std::nullopt;
}

}  // namespace

// ---- Its row in the list of sections (scene_section.h) ------------------------------

extern const SceneSection kMaterialPointsSection{kSection,
                                                 ReadStage::Elements,
                                                 read_material_points,
                                                 material_points_json,
                                                 CheckStage::Elements,
                                                 check_material_points};

}  // namespace scene_io
}  // namespace nudge
