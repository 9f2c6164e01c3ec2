// The "tets" section (stable Neo-Hookean solids: indices, per-tet k_mu, k_lambda,
// k_damp or Young's modulus and Poisson's ratio, actuation channels and gains, and a
// density that sets the masses): how it is read from a scene file, written back and
// checked. The rest shape is the tets' shape in the initial positions, so a tet must be
// neither flat nor inverted there.
//
// Young and Poisson, and the density, are ways of writing a file: the loader turns them
// into k_mu, k_lambda (Smith et al.'s small-strain match, stable_neohookean_from_lame)
// and particle masses, which are what a scene holds and what is saved back.
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "io/scene_section.h"
#include "io/scene_sections.h"
#include "families/tets/tet_neohookean.h"

namespace nudge::scene_io {

namespace {

bool poisson_ratio(double x) { return std::isfinite(x) && x > -1 && x < 0.5; }

std::string corners_text(const int* abcd) {
  return std::to_string(abcd[0]) + ", " + std::to_string(abcd[1]) + ", " + std::to_string(abcd[2]) + ", " +
         std::to_string(abcd[3]);
}

Vec3<double> initial_position(const Scene& scene, int i) {
  const std::vector<double>& x = scene.params[ParamId::InitialPosition].value;
  return {x[3 * size_t(i)], x[3 * size_t(i) + 1], x[3 * size_t(i) + 2]};
}

TetRest<double> rest_of(const Scene& scene, int tet) {
  const int* c = &scene.tets[4 * size_t(tet)];
  return tet_rest(initial_position(scene, c[0]), initial_position(scene, c[1]), initial_position(scene, c[2]),
                  initial_position(scene, c[3]));
}

}  // namespace

// ---- Reading ----------------------------------------------------------------------

std::optional<double> SceneReader::read_tets(const std::optional<Node>& node, Scene& scene) const {
  if (!node) return std::nullopt;
  expect_object(*node, section_keys("tets", {"indices", "k_mu", "k_lambda", "young", "poisson", "channel", "actuation",
                                             "density"}));
  const Node indices = required(*node, "indices", "an array of [a, b, c, d] particle index quadruples");
  expect_array(indices, "an array of [a, b, c, d] particle index quadruples");
  const std::size_t count = indices.size();
  for (std::size_t k = 0; k < count; ++k) {
    const Node quad = indices.element(k);
    if (!quad.json.is_array() || quad.size() != 4) fail_found(quad, "a quadruple [a, b, c, d] of particle indices");
    int abcd[4];
    for (std::size_t c = 0; c < 4; ++c) abcd[c] = particle_index(quad.element(c));
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (abcd[a] == abcd[b])
          fail(quad.path, "found particles " + corners_text(abcd) + "; expected four different particles");
    scene.tets.insert(scene.tets.end(), abcd, abcd + 4);
  }

  // The material: k_mu and k_lambda, or Young's modulus and Poisson's ratio.
  const auto young = optional(*node, "young"), poisson = optional(*node, "poisson");
  if (young || poisson) {
    for (const char* key : {"k_mu", "k_lambda"})
      if (auto lame = optional(*node, key))
        fail(lame->path, "found both \"" + std::string(key) + "\" and \"" + (young ? "young" : "poisson") +
                             "\"; expected k_mu and k_lambda, or young and poisson");
    if (!young || !poisson)
      fail((young ? *young : *poisson).path, std::string("found \"") + (young ? "young" : "poisson") + "\" without \"" +
                                                 (young ? "poisson" : "young") +
                                                 "\"; expected both (Young's modulus and Poisson's ratio)");
    const std::vector<double> e = per_item(*young, count, "tet", "a Young's modulus > 0 (Pa)", positive);
    const std::vector<double> nu = per_item(*poisson, count, "tet", "a Poisson's ratio in (-1, 0.5)", poisson_ratio);
    std::vector<double>& k_mu = scene.params[ParamId::TetMu].value;
    std::vector<double>& k_lambda = scene.params[ParamId::TetLambda].value;
    k_mu.resize(count);
    k_lambda.resize(count);
    for (std::size_t t = 0; t < count; ++t) {
      const Lame<double> k = stable_neohookean_from_lame(lame_from_young_poisson(e[t], nu[t]));
      k_mu[t] = k.mu;
      k_lambda[t] = k.lambda;
    }
  } else {
    read_param_rows(*node, scene, ParamId::TetMu, count);
    read_param_rows(*node, scene, ParamId::TetLambda, count);
  }
  read_param_columns(*node, scene, "tets", count);

  // Actuation, as the springs': a channel per tet (-1 passive) and a gain.
  scene.tet_channel.assign(count, -1);
  if (auto channel = optional(*node, "channel")) {
    const int c = scene.channels;
    const std::string expected = c == 0 ? "-1 (passive; controls.channels is 0, so no tet can be driven)"
                                        : "-1 (passive) or a channel in [0, " + std::to_string(c) + ")";
    if (channel->json.is_number()) {
      scene.tet_channel.assign(count, static_cast<int>(integer(*channel, -1, c - 1, expected)));
    } else {
      if (!channel->json.is_array() || channel->size() != count)
        fail_found(*channel, "a channel or an array of " + std::to_string(count) + " channels (one per tet)");
      for (std::size_t k = 0; k < count; ++k)
        scene.tet_channel[k] = static_cast<int>(integer(channel->element(k), -1, c - 1, expected));
    }
  }
  scene.tet_actuation.assign(count, 0.0);
  if (auto actuation = optional(*node, "actuation"))
    scene.tet_actuation = per_item(*actuation, count, "tet", "a finite actuation", finite);

  if (auto density = optional(*node, "density")) return number(*density, "a density > 0 (kg/m^3)", positive);
  return std::nullopt;
}

// Each tet particle's mass: the sum of density * volume / 4 over its tets (lumped mass).
// Particles in no tet keep theirs. Flat or inverted tets add nothing; check_tets names them.
void SceneReader::store_tet_masses(double density, Scene& scene) {
  std::vector<double>& mass = scene.params[ParamId::Mass].value;
  std::vector<double> lumped(mass.size(), 0.0);
  std::vector<unsigned char> in_tet(mass.size(), 0);
  for (int t = 0; t < scene.tet_count(); ++t) {
    const TetRest<double> rest = rest_of(scene, t);
    for (int c = 0; c < 4; ++c) {
      const auto i = static_cast<std::size_t>(scene.tets[4 * size_t(t) + c]);
      in_tet[i] = 1;
      if (rest.status == TetRestStatus::ok) lumped[i] += tet_vertex_mass(density, rest.volume);
    }
  }
  for (std::size_t i = 0; i < mass.size(); ++i)
    if (in_tet[i]) mass[i] = lumped[i];
}

// ---- Writing ----------------------------------------------------------------------

static OrderedJson tets_json(const Scene& scene) {
  const ParameterSet& p = scene.params;
  OrderedJson tets;
  OrderedJson indices = OrderedJson::array();
  for (int t = 0; t < scene.tet_count(); ++t) {
    const int* c = &scene.tets[4 * size_t(t)];
    indices.push_back({c[0], c[1], c[2], c[3]});
  }
  tets["indices"] = indices;
  tets["k_mu"] = p[ParamId::TetMu].value;
  tets["k_lambda"] = p[ParamId::TetLambda].value;
  write_param_columns(tets, scene, "tets");
  tets["channel"] = scene.tet_channel;
  tets["actuation"] = scene.tet_actuation;
  return tets;
}

// ---- Checking ---------------------------------------------------------------------

static Problem check_tets(const Scene& scene) {
  const std::size_t count = static_cast<std::size_t>(scene.tet_count());
  if (scene.tets.size() % 4 != 0)
    return "tets.indices: found " + std::to_string(scene.tets.size()) + " indices; expected 4 per tet";
  if (scene.tet_channel.size() != count)
    return "tets.channel: found " + std::to_string(scene.tet_channel.size()) + " entries; expected " +
           std::to_string(count) + " (one per tet)";
  if (scene.tet_actuation.size() != count)
    return "tets.actuation: found " + std::to_string(scene.tet_actuation.size()) + " entries; expected " +
           std::to_string(count) + " (one per tet)";
  const int n = scene.particle_count(), c = scene.channels;
  const bool positions = scene.params[ParamId::InitialPosition].value.size() == 3 * size_t(n);
  const std::string particle_range = "a particle index in [0, " + std::to_string(n) + ")";
  for (int t = 0; t < scene.tet_count(); ++t) {
    const std::string quad = index_path("tets.indices", t);
    const int* abcd = &scene.tets[4 * size_t(t)];
    for (int k = 0; k < 4; ++k)
      if (abcd[k] < 0 || abcd[k] >= n) return found(index_path(quad, k), abcd[k], particle_range);
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (abcd[a] == abcd[b])
          return quad + ": found particles " + corners_text(abcd) + "; expected four different particles";
    const int channel = scene.tet_channel[size_t(t)];
    if (channel < -1 || channel >= c)
      return found(index_path("tets.channel", t), channel,
                   "-1 (passive) or a channel in [0, " + std::to_string(c) + ")");
    if (!finite(scene.tet_actuation[size_t(t)]))
      return found(index_path("tets.actuation", t), scene.tet_actuation[size_t(t)], "a finite actuation");
    if (!positions) continue;  // check_parameters reports the shape
    const TetRest<double> rest = rest_of(scene, t);
    if (rest.status == TetRestStatus::degenerate)
      return quad + ": found particles " + corners_text(abcd) + " flat in the initial positions (volume " +
             number_text(rest.volume) + "); expected a tetrahedron of positive volume, its rest shape";
    if (rest.status == TetRestStatus::inverted)
      return quad + ": found particles " + corners_text(abcd) + " inverted in the initial positions (volume " +
             number_text(rest.volume) +
             "); expected a positively oriented tetrahedron, (x1 - x0) . ((x2 - x0) x (x3 - x0)) > 0 (swap two "
             "corners)";
  }
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

extern const SceneSection kTetsSection{
    "tets",
    ReadStage::Elements,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      const std::optional<double> density = in.reader.read_tets(in.node, scene);
      if (!density) return {};
      // The density sets the tets' particles' masses: one or the other.
      const std::optional<Node> particles = in.reader.optional(in.top, "particles");
      if (particles && in.reader.optional(*particles, "mass"))
        in.reader.fail(in.reader.optional(*in.node, "density")->path,
                       "found a density while particles.mass is also given; expected one of them (the density sets "
                       "the masses of the tets' particles, and the file saved back holds those masses)");
      return [d = *density](Scene& s) { SceneReader::store_tet_masses(d, s); };
    },
    [](const Scene& scene) { return scene.tet_count() > 0 ? tets_json(scene) : OrderedJson(); },
    CheckStage::Counts,
    check_tets};

}  // namespace nudge::scene_io
