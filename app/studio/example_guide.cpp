#include "studio/example_guide.h"

#include <array>

namespace nudge::studio {

namespace {

using A = Audience;

constexpr std::array kGuides{
    ExampleGuide{"projectile", A::Teach,
                 "Optimise > Start: L-BFGS lands the ball on the target in two steps; then Check the gradients."},
    ExampleGuide{"bounce", A::Teach,
                 "Show View > Gradient Overlay > dL/d initial velocity, then optimise through two contacts."},
    ExampleGuide{"seeds_in_wind", A::Teach,
                 "Find each seed's own air drag from where it landed; Landscape shows the loss along one."},
    ExampleGuide{"billiards", A::Teach,
                 "A gradient through a collision: Check against finite differences, then Compare with CMA-ES."},
    ExampleGuide{"balance", A::Teach,
                 "How big must the right ball be for the plank to hang level? L-BFGS finds the lever rule."},
    ExampleGuide{"spring_sysid", A::Teach, "Recover a spring's stiffness and damping from its motion."},
    ExampleGuide{"footage_spring", A::Match,
                 "Look through the shot (C), track the weight, then fit the spring to the footage."},
    ExampleGuide{"pendulum_length", A::Match, "Measure a pendulum's length from the tracked marker of a filmed swing."},
    ExampleGuide{"double_pendulum_sysid", A::Match,
                 "Fit a chaotic double pendulum to its track: see where the horizon makes gradients explode."},
    ExampleGuide{"drape", A::Match,
                 "Identify a cloth's stretch and bending stiffness from a marker track of how it drapes."},
    ExampleGuide{"softbody_properties", A::Match, "Identify a soft cube's stiffness from its bounce."},
    ExampleGuide{"throw", A::Match,
                 "Throw a spinning box so it comes to rest upright on the mark, through every bounce."},
    ExampleGuide{"rock_throw", A::Match, "Toss an irregular stone so it tumbles, slides and stops on the mark."},
    ExampleGuide{"sand_collapse", A::Match, "Fit sand's friction angle so its collapse leaves the reference heap."},
    ExampleGuide{"sand_collapse_3d", A::Match, "Fit the friction angle of a 3D sand column from the heap it leaves."},
    ExampleGuide{"jelly_bounce", A::Match, "Fit a jelly ball's stiffness so it squashes and bounces as the reference."},
    ExampleGuide{"float_block", A::Match, "Fit a block's density from how deep it floats in a tank of water."},
    ExampleGuide{"coffee_pour", A::Design,
                 "Pour coffee into a mug: Optimise the cup's tilt until the coffee lands in it, not beside it."},
    ExampleGuide{"walker", A::Design, "Optimise the muscles' open-loop controls until the robot walks right."},
    ExampleGuide{"soft_walker", A::Design, "A soft robot of tetrahedra learns to crawl with actuated muscles."},
    ExampleGuide{"drone", A::Design, "Plan a quadrotor's thrusts to fly to a point and stop (try --mpc too)."},
    ExampleGuide{"arm_reach", A::Design, "Drive three joints so the hand reaches the target."},
    ExampleGuide{"arm7_reach", A::Design,
                 "A 7-joint arm from MJCF, in joint coordinates: drive its motors to a pose and hold it."},
    ExampleGuide{"cartpole_balance", A::Design,
                 "A cartpole from MJCF: catch the falling pole (nudge mpc re-plans where one plan fails)."},
    ExampleGuide{"cartpole_swingup", A::Design,
                 "The cartpole again, its pole hanging: swing it up and hold it (nudge mpc, running costs)."},
    ExampleGuide{"quadruped_walk", A::Design,
                 "A quadruped from MJCF on a free base: a network on a clock learns to walk it forward."},
    ExampleGuide{"quadruped_codesign", A::Design,
                 "Co-design: the quadruped's leg lengths and a network that reads its joints, optimised together."},
    ExampleGuide{"paddle_flick", A::Design,
                 "A hinged paddle flicks the cloth resting on it to a target: its motor learns the flick."},
    ExampleGuide{
        "bat_strike", A::Design,
        "Two links that meet: swing a bat so the block it strikes slides to the mark (from zero: no gradient)."},
    ExampleGuide{"jelly_catapult", A::Design,
                 "A catapult's arm throws a ball of jelly (material points) from its cup: aim it through the mark."},
    ExampleGuide{"tether", A::Design, "A ball on a rope: choose the launch so it swings to the target."},
    ExampleGuide{"slide", A::Design, "Curling with a box: pick the push and spin that stop it on the mark."},
    ExampleGuide{"stiff_cloth_implicit", A::Design,
                 "A cloth too stiff for explicit steps, stepped implicitly: tune the wind to lift its edge."},
    ExampleGuide{"cloth", A::Compare, "B1, the benchmark cloth: the gradient the README times against the peers."},
    ExampleGuide{"cloth_throw", A::Compare, "B3, Warp's cloth throw, reproduced to compare gradients."},
    ExampleGuide{"softbody_bounce", A::Compare, "Warp's soft body example, reproduced to compare numbers."},
    ExampleGuide{"mass_spring_robot2", A::Compare, "DiffTaichi's robot 2, reproduced for a side-by-side run."},
    ExampleGuide{"mass_spring_robot3", A::Compare, "DiffTaichi's robot 3, reproduced for a side-by-side run."},
    ExampleGuide{"diffmpm", A::Compare, "DiffTaichi's soft robot of material points (MLS-MPM): Optimise its gait."},
};

}  // namespace

std::string_view audience_title(Audience audience) {
  switch (audience) {
    case A::Teach: return "Learn what a gradient does";
    case A::Match: return "Match simulated motion to footage";
    case A::Design: return "Design controls and shapes";
    case A::Compare: return "Compare with other tools";
  }
  return "";
}

std::span<const Audience> audiences() {
  static constexpr std::array kAudiences{A::Teach, A::Match, A::Design, A::Compare};
  return kAudiences;
}

std::span<const ExampleGuide> example_guides() { return kGuides; }

const ExampleGuide* example_guide(std::string_view stem) {
  for (const ExampleGuide& guide : kGuides)
    if (guide.stem == stem) return &guide;
  return nullptr;
}

}  // namespace nudge::studio
