// Every section of a scene file, in the order a file writes them. Reading takes them by
// stage (scene_section.h) and, within a stage, in this order; check_scene likewise.
// A new section: its row in its own file, declared and listed here.
#include <array>

#include "io/scene_section.h"

namespace nudge::scene_io {

extern const SceneSection kSimulationSection, kBodiesSection, kJointsSection, kJointSettingsSection,
    kJointControlsSection, kAttachmentsSection, kParticlesSection, kSpringsSection, kTrianglesSection, kBendingSection,
    kTetsSection, kControlsSection, kControllerSection, kActuatorsSection, kCollidersSection, kContactSection,
    kParametersSection, kFootageSection, kObjectivesSection, kOptimizerSection, kCameraSection, kMaterialPointsSection,
    kArticulationsSection;

namespace {

constexpr std::array kSections{
    &kSimulationSection,    &kBodiesSection,      &kJointsSection,     &kJointSettingsSection,
    &kJointControlsSection, &kAttachmentsSection, &kParticlesSection,  &kSpringsSection,
    &kTrianglesSection,     &kBendingSection,     &kTetsSection,       &kControlsSection,
    &kControllerSection,    &kActuatorsSection,   &kCollidersSection,  &kMaterialPointsSection,
    &kArticulationsSection, &kContactSection,     &kParametersSection, &kFootageSection,
    &kObjectivesSection,    &kOptimizerSection,   &kCameraSection,
};

}  // namespace

std::span<const SceneSection* const> scene_sections() { return kSections; }

}  // namespace nudge::scene_io
