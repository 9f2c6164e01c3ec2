// Exports of the fitted motion: the CSV's rows against the trajectory and the camera's
// projection, and the glTF file read back with tinygltf (nodes, the camera, animation
// samples equal to the trajectory at the shot's frames); bad names are refused and leave
// nothing behind.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

// The configuration motion_export.cpp compiles tinygltf with (no image codecs).
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

#include "../engine/footage_test_scenes.h"
#include "../engine/temp_dir.h"
#include "footage/motion_export.h"

using namespace nudge;

namespace {

std::vector<std::string> lines_of(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("footage: the motion exported as CSV and as glTF, read back") {
  Scene scene = test::make_spring_shot(60.0, 0.25, 10);
  scene.footage.first_frame = 5;
  const Trajectory traj = test::simulate_on_cpu(scene);
  const footage::MotionSampling sampling = footage::shot_sampling(scene);
  CHECK(sampling.every == 20);
  CHECK(sampling.first_frame == 5);
  test::TempDir dir("footage-export");

  REQUIRE(footage::write_motion_csv(dir.path / "motion.csv", scene, traj, sampling).ok());
  const std::vector<std::string> lines = lines_of(dir.path / "motion.csv");
  REQUIRE(lines.size() == 1 + 11 * 2);  // frames 5..15, two particles
  CHECK(lines[0] == "frame,time,kind,index,x,y,z,u,v");
  {  // frame 8 (step 60), the weight
    std::istringstream row(lines[1 + 3 * 2 + 1]);
    std::string field;
    std::vector<std::string> fields;
    while (std::getline(row, field, ',')) fields.push_back(field);
    REQUIRE(fields.size() == 9);
    CHECK(fields[0] == "8");
    CHECK(std::stod(fields[1]) == doctest::Approx(0.06));
    CHECK(fields[2] == "particle");
    const double* x = &traj.x[(60 * 2 + 1) * 3];
    CHECK(std::stod(fields[5]) == doctest::Approx(x[1]).epsilon(1e-15));
    double uv[2];
    project_point(*scene.footage.camera, x, uv);
    CHECK(std::stod(fields[7]) == doctest::Approx(uv[0]).epsilon(1e-15));
  }

  for (const char* name : {"motion.gltf", "motion.glb"}) {
    CAPTURE(name);
    REQUIRE(footage::write_motion_gltf(dir.path / name, scene, traj, sampling).ok());
    tinygltf::Model model;
    tinygltf::TinyGLTF loader;
    std::string error, warning;
    const std::string path = (dir.path / name).string();
    const bool loaded = std::string(name).ends_with(".glb") ? loader.LoadBinaryFromFile(&model, &error, &warning, path)
                                                            : loader.LoadASCIIFromFile(&model, &error, &warning, path);
    REQUIRE_MESSAGE(loaded, error);
    REQUIRE(model.nodes.size() == 3);  // two particles and the camera
    CHECK(model.nodes[1].name == "particle 1");
    REQUIRE(model.cameras.size() == 1);
    CHECK(model.cameras[0].perspective.yfov ==
          doctest::Approx(vertical_fov_degrees(*scene.footage.camera) * M_PI / 180));
    CHECK(model.nodes[2].rotation[3] == doctest::Approx(scene.footage.camera->orientation[3]));
    // A finite clip range (the schema wants zfar > znear; 0 was written before) that holds
    // the motion: every particle at every step is nearer than zfar.
    const tinygltf::PerspectiveCamera& lens = model.cameras[0].perspective;
    CHECK(lens.znear > 0);
    CHECK(lens.zfar > lens.znear);
    for (size_t i = 0; i + 2 < traj.x.size(); i += 3) {
      const double* at = scene.footage.camera->position;
      CHECK(std::hypot(traj.x[i] - at[0], traj.x[i + 1] - at[1], traj.x[i + 2] - at[2]) < lens.zfar);
    }
    REQUIRE(model.animations.size() == 1);
    const tinygltf::AnimationChannel& channel = model.animations[0].channels[1];  // particle 1's translation
    CHECK(channel.target_node == 1);
    const tinygltf::AnimationSampler& sampler = model.animations[0].samplers[size_t(channel.sampler)];
    const tinygltf::Accessor& times = model.accessors[size_t(sampler.input)];
    const tinygltf::Accessor& values = model.accessors[size_t(sampler.output)];
    REQUIRE(times.count == 11);
    REQUIRE(values.count == 11);
    const tinygltf::BufferView& view = model.bufferViews[size_t(values.bufferView)];
    const float* xyz = reinterpret_cast<const float*>(model.buffers[0].data.data() + view.byteOffset);
    for (int frame = 0; frame <= 10; ++frame)
      for (int k = 0; k < 3; ++k) CHECK(xyz[frame * 3 + k] == float(traj.x[(size_t(frame) * 20 * 2 + 1) * 3 + k]));
  }

  const Status wrong = footage::write_motion_gltf(dir.path / "motion.fbx", scene, traj, sampling);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message.find(".gltf or .glb") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path / "motion.fbx"));
  CHECK_FALSE(footage::write_motion_csv(dir.path / "missing" / "folder" / "m.csv", scene, traj, sampling).ok());
}
