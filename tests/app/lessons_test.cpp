#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "nudge/parameters.h"
#include "studio/lessons.h"
#include "studio_test_scenes.h"
#include "view/gradient_overlay.h"

using nudge::studio_test::source_dir;
namespace studio = nudge::studio;
using studio::LessonAction;

// A lesson that names an example that is gone, or a gradient the studio cannot draw,
// would stop at that step in front of a class: each is checked here.
TEST_CASE("lessons: every step's example exists and every named parameter is one the studio draws or plots") {
  REQUIRE(studio::lessons().size() >= 4);
  for (const studio::Lesson& lesson : studio::lessons()) {
    CAPTURE(std::string(lesson.title));
    CHECK(!lesson.summary.empty());
    REQUIRE(!lesson.steps.empty());
    CHECK(lesson.steps.front().action == LessonAction::OpenExample);  // each starts from a known scene
    for (const studio::LessonStep& step : lesson.steps) {
      CAPTURE(std::string(step.text.substr(0, 40)));
      CHECK(!step.text.empty());
      const std::string argument(step.argument);
      switch (step.action) {
        case LessonAction::OpenExample:
          CHECK(std::filesystem::is_regular_file(source_dir() / "scenes" / (argument + ".json")));
          break;
        case LessonAction::ShowGradient:
          CHECK(nudge::view::gradient_overlay_for_parameter(argument).has_value());
          break;
        case LessonAction::LandscapeOnEntry: CHECK(nudge::param_from_name(argument).has_value()); break;
        case LessonAction::SetHorizon: CHECK(step.number > 0); break;
        default: CHECK(argument.empty()); break;
      }
    }
  }
}
