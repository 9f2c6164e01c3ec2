#include "footage/motion_export.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>

#include "nudge/atomic_file.h"
#include "nudge/quat.h"

#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE
#include <tiny_gltf.h>

namespace nudge::footage {

namespace {

std::vector<int> sample_steps(const Trajectory& traj, const MotionSampling& sampling) {
  std::vector<int> steps;
  for (int t = 0; t <= traj.steps; t += std::max(sampling.every, 1)) steps.push_back(t);
  return steps;
}

std::string number(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

// Appends the floats to the buffer, 4-byte aligned, and returns an accessor over them.
int add_accessor(tinygltf::Model& model, const std::vector<float>& values, int components, bool with_bounds) {
  tinygltf::Buffer& buffer = model.buffers[0];
  const size_t offset = buffer.data.size();
  buffer.data.resize(offset + values.size() * sizeof(float));
  std::memcpy(buffer.data.data() + offset, values.data(), values.size() * sizeof(float));

  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = offset;
  view.byteLength = values.size() * sizeof(float);
  model.bufferViews.push_back(view);

  tinygltf::Accessor accessor;
  accessor.bufferView = int(model.bufferViews.size()) - 1;
  accessor.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
  accessor.count = values.size() / size_t(components);
  accessor.type = components == 1 ? TINYGLTF_TYPE_SCALAR : components == 3 ? TINYGLTF_TYPE_VEC3 : TINYGLTF_TYPE_VEC4;
  if (with_bounds) {  // glTF requires min and max on animation inputs
    accessor.minValues = {values.front()};
    accessor.maxValues = {values.back()};
  }
  model.accessors.push_back(accessor);
  return int(model.accessors.size()) - 1;
}

void add_channel(tinygltf::Animation& animation, int node, int input, int output, const char* path) {
  tinygltf::AnimationSampler sampler;
  sampler.input = input;
  sampler.output = output;
  sampler.interpolation = "LINEAR";
  animation.samplers.push_back(sampler);
  tinygltf::AnimationChannel channel;
  channel.sampler = int(animation.samplers.size()) - 1;
  channel.target_node = node;
  channel.target_path = path;
  animation.channels.push_back(channel);
}

}  // namespace

MotionSampling shot_sampling(const Scene& scene) {
  const std::optional<int> spf = steps_per_frame(scene.footage.fps, scene.settings.dt);
  if (!spf) return {};
  return {*spf, scene.footage.first_frame};
}

Status write_motion_csv(const std::filesystem::path& path, const Scene& scene, const Trajectory& traj,
                        const MotionSampling& sampling) {
  const std::optional<PinholeCamera>& camera = scene.footage.camera;
  std::string out = camera ? "frame,time,kind,index,x,y,z,u,v\n" : "frame,time,kind,index,x,y,z\n";
  const auto row = [&](int frame, double time, const char* kind, int index, const double* x) {
    out += std::to_string(frame) + "," + number(time) + "," + kind + "," + std::to_string(index);
    for (int k = 0; k < 3; ++k) out += "," + number(x[k]);
    if (camera) {
      double uv[2];
      if (project_point(*camera, x, uv) >= kMinProjectionDepth)
        out += "," + number(uv[0]) + "," + number(uv[1]);
      else
        out += ",,";
    }
    out += "\n";
  };
  const std::vector<int> steps = sample_steps(traj, sampling);
  for (size_t s = 0; s < steps.size(); ++s) {
    const int t = steps[s], frame = sampling.first_frame + int(s);
    for (int p = 0; p < traj.particles; ++p)
      row(frame, t * traj.dt, "particle", p, &traj.x[(size_t(t) * traj.particles + p) * 3]);
    for (int b = 0; b < traj.bodies; ++b)
      row(frame, t * traj.dt, "body", b, &traj.body_x[(size_t(t) * traj.bodies + b) * 3]);
  }
  return write_file_atomically(path, out);
}

Status write_motion_gltf(const std::filesystem::path& path, const Scene& scene, const Trajectory& traj,
                         const MotionSampling& sampling) {
  const std::string extension = path.extension().string();
  if (extension != ".gltf" && extension != ".glb")
    return Error{path.string() + ": not written: expected a file name ending in .gltf or .glb"};
  tinygltf::Model model;
  model.asset.version = "2.0";
  model.asset.generator = "Nudge";
  model.buffers.resize(1);
  tinygltf::Scene root;
  root.name = scene.name;

  const std::vector<int> steps = sample_steps(traj, sampling);
  std::vector<float> times;
  for (int t : steps) times.push_back(static_cast<float>(t * traj.dt));
  const int input = add_accessor(model, times, 1, true);
  tinygltf::Animation animation;
  animation.name = "fitted motion";

  const auto add_node = [&](const std::string& name) {
    tinygltf::Node node;
    node.name = name;
    model.nodes.push_back(node);
    root.nodes.push_back(int(model.nodes.size()) - 1);
    return int(model.nodes.size()) - 1;
  };
  const auto track_of = [&](const std::vector<double>& values, int count, int index, int components) {
    std::vector<float> out;
    for (int t : steps)
      for (int k = 0; k < components; ++k)
        out.push_back(static_cast<float>(values[(size_t(t) * count + index) * components + k]));
    return out;
  };
  for (int p = 0; p < traj.particles; ++p) {
    const int node = add_node("particle " + std::to_string(p));
    const std::vector<float> xyz = track_of(traj.x, traj.particles, p, 3);
    model.nodes[node].translation = {xyz[0], xyz[1], xyz[2]};
    add_channel(animation, node, input, add_accessor(model, xyz, 3, false), "translation");
  }
  for (int b = 0; b < traj.bodies; ++b) {
    const std::string& name = scene.bodies[size_t(b)].name;
    const int node = add_node(name.empty() ? "body " + std::to_string(b) : name);
    const std::vector<float> xyz = track_of(traj.body_x, traj.bodies, b, 3),
                             q = track_of(traj.body_q, traj.bodies, b, 4);
    model.nodes[node].translation = {xyz[0], xyz[1], xyz[2]};
    model.nodes[node].rotation = {q[0], q[1], q[2], q[3]};
    add_channel(animation, node, input, add_accessor(model, xyz, 3, false), "translation");
    add_channel(animation, node, input, add_accessor(model, q, 4, false), "rotation");
  }
  if (const std::optional<PinholeCamera>& c = scene.footage.camera) {
    // glTF's camera looks along its -z with +y up, as ours does: the pose carries over.
    tinygltf::Camera camera;
    camera.type = "perspective";
    camera.name = "shot camera";
    camera.perspective.yfov = vertical_fov_degrees(*c) * M_PI / 180.0;
    camera.perspective.aspectRatio = double(c->width) / double(c->height);
    // A clip range that holds the whole motion: glTF requires zfar > znear (tinygltf
    // writes 0, "infinite", which the schema forbids), and importers take it as the
    // camera's clip end. Ten times the farthest point of the motion from the camera, and
    // at least 100 m.
    double farthest = 0.0;
    const auto reach = [&](const std::vector<double>& xyz) {
      for (size_t i = 0; i + 2 < xyz.size(); i += 3) {
        const double dx = xyz[i] - c->position[0], dy = xyz[i + 1] - c->position[1], dz = xyz[i + 2] - c->position[2];
        farthest = std::max(farthest, std::sqrt(dx * dx + dy * dy + dz * dz));
      }
    };
    reach(traj.x);
    reach(traj.body_x);
    camera.perspective.znear = 0.01;
    camera.perspective.zfar = std::max(100.0, 10.0 * farthest);
    model.cameras.push_back(camera);
    const int node = add_node("shot camera");
    model.nodes[node].camera = 0;
    model.nodes[node].translation = {c->position[0], c->position[1], c->position[2]};
    model.nodes[node].rotation = {c->orientation[0], c->orientation[1], c->orientation[2], c->orientation[3]};
  }
  if (!animation.channels.empty()) model.animations.push_back(animation);
  model.scenes.push_back(root);
  model.defaultScene = 0;

  const bool binary = extension == ".glb";
  std::ostringstream stream;
  tinygltf::TinyGLTF writer;
  if (!writer.WriteGltfSceneToStream(&model, stream, !binary, binary))
    return Error{path.string() + ": not written: the glTF writer failed"};
  return write_file_atomically(path, stream.str());
}

}  // namespace nudge::footage
