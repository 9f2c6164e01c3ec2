// The fitted motion out to other programs: a CSV table of every particle and body at the
// shot's frames (with their image positions when there is a camera), and a glTF 2.0 file
// (tinygltf, Debian's libtinygltf-dev) with one animated node per particle and body and
// the shot's camera, which Blender, Maya (via its glTF importer), Houdini and Nuke read.
// glTF is the one of the formats the issue names that has a maintained library in Debian
// (Alembic and USD have none in Debian 12).
#pragma once

#include <filesystem>

#include "nudge/result.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge::footage {

// Which states are written: every `every` steps from step 0, at time step x dt, labelled
// with the shot's frame (first_frame + step / every when every is the footage's steps per
// frame; else the sample's number).
struct MotionSampling {
  int every = 1;
  int first_frame = 0;
};

// The sampling of the scene's footage (its steps per frame, its first frame); every step
// when the footage's frame rate gives no whole number of steps per frame.
MotionSampling shot_sampling(const Scene& scene);

// frame,time,kind,index,x,y,z[,u,v]: one row per particle and body per sample; u and v
// (px) when the footage has a camera, empty for a point behind it. Written atomically.
Status write_motion_csv(const std::filesystem::path& path, const Scene& scene, const Trajectory& traj,
                        const MotionSampling& sampling);

// .gltf (JSON with the buffer embedded) or .glb (binary), chosen by the extension.
// Particles become nodes "particle <i>" animated in translation, bodies nodes named after
// them animated in translation and rotation, and the footage's camera (if any) a camera
// node "shot camera". Times are the samples' simulation times. Written atomically.
Status write_motion_gltf(const std::filesystem::path& path, const Scene& scene, const Trajectory& traj,
                         const MotionSampling& sampling);

}  // namespace nudge::footage
