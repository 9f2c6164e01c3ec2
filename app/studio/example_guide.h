// What each shipped example is for, in one line, and who it is for: the welcome panel's
// cards and File > Examples read it. Every scene in scenes/ has an entry (tested), so a
// new example cannot ship without one.
#pragma once

#include <span>
#include <string_view>

namespace nudge::studio {

enum class Audience { Teach, Match, Design, Compare };

// Every audience, in the order the welcome panel and File > Examples group them.
std::span<const Audience> audiences();
// The welcome panel's heading for a group: "Learn what a gradient does" ...
std::string_view audience_title(Audience audience);

struct ExampleGuide {
  std::string_view stem;  // the file's name without ".json"
  Audience audience;
  std::string_view try_this;  // one line: what to do with it first
};

// Every example, grouped by audience in the order the welcome panel shows them.
std::span<const ExampleGuide> example_guides();
// The entry of a file stem, or null.
const ExampleGuide* example_guide(std::string_view stem);

}  // namespace nudge::studio
