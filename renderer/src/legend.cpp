// Legend layout and drawing. Text comes from stb_easy_font: glyphs made of small
// rectangles, which stay crisp at integer positions and whole-number scales.
#include <algorithm>
#include <cstdio>
#include <string>

#include <stb/stb_easy_font.h>

#include "legend_overlay.h"
#include "nudge/render/legend_layout.h"

namespace nudge::render {

namespace {

constexpr int kCapHeight = 7;  // stb_easy_font's capitals and digits, in font units

struct Metrics {
  int scale, margin, pad, gap, bar_width, tick, cap;
};

Metrics metrics_for(int height) {
  const int s = height >= 700 ? 2 : 1;  // text stays readable on large frames
  return Metrics{s, 10 * s, 6 * s, 5 * s, 14 * s, 4 * s, kCapHeight * s};
}

// stb_easy_font only knows printable ASCII (it indexes a table by character).
std::string printable(const std::string& text) {
  std::string out = text;
  for (char& c : out) {
    if (c < 32 || c > 126) c = '?';
  }
  return out;
}

std::string format_value(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", static_cast<double>(value + 0.0f));  // no "-0"
  return text;
}

int text_width(const std::string& text, int scale) {
  std::string copy = printable(text);
  return stb_easy_font_width(copy.data()) * scale;
}

struct LegendTexts {
  std::string label, max, mid, min;
};

LegendTexts texts_of(const Legend& legend) {
  return {legend.label, format_value(legend.max), format_value(0.5f * (legend.min + legend.max)),
          format_value(legend.min)};
}

void add_rect(std::vector<gpu::OverlayVertex>& out, float x0, float y0, float x1, float y1, const gpu::vec4& color) {
  const gpu::vec4 corners[6] = {{x0, y0, 0, 1}, {x1, y0, 0, 1}, {x1, y1, 0, 1},
                                {x0, y0, 0, 1}, {x1, y1, 0, 1}, {x0, y1, 0, 1}};
  for (const gpu::vec4& p : corners) out.push_back({p, color});
}

void add_rect(std::vector<gpu::OverlayVertex>& out, const PixelRect& r, const gpu::vec4& color) {
  add_rect(out, static_cast<float>(r.x), static_cast<float>(r.y), static_cast<float>(r.x + r.width),
           static_cast<float>(r.y + r.height), color);
}

// Text with its top-left at (x, y), `scale` pixels per font unit.
void add_text(std::vector<gpu::OverlayVertex>& out, const std::string& text, int x, int y, int scale,
              const gpu::vec4& color) {
  struct FontVertex {
    float x, y, z;
    unsigned char rgba[4];
  };
  static_assert(sizeof(FontVertex) == 16, "stb_easy_font writes 16-byte vertices");
  std::string chars = printable(text);
  std::vector<FontVertex> quads(chars.size() * 64 + 64);  // ~270 bytes per character
  const int quad_count = stb_easy_font_print(0, 0, chars.data(), nullptr, quads.data(),
                                             static_cast<int>(quads.size() * sizeof(FontVertex)));
  const auto fx = static_cast<float>(x);
  const auto fy = static_cast<float>(y);
  const auto fs = static_cast<float>(scale);
  for (int q = 0; q < quad_count; ++q) {
    const FontVertex& a = quads[static_cast<std::size_t>(q) * 4];
    const FontVertex& c = quads[static_cast<std::size_t>(q) * 4 + 2];
    add_rect(out, fx + a.x * fs, fy + a.y * fs, fx + c.x * fs, fy + c.y * fs, color);
  }
}

}  // namespace

std::vector<LegendLayout> layout_legends(const std::vector<Legend>& legends, int width, int height) {
  const Metrics m = metrics_for(height);
  std::vector<LegendLayout> layouts;
  int right = width - m.margin;
  for (const Legend& legend : legends) {
    const LegendTexts texts = texts_of(legend);
    const int values_width =
        std::max({text_width(texts.max, m.scale), text_width(texts.mid, m.scale), text_width(texts.min, m.scale)});
    const int content_width = std::max(m.bar_width + m.tick + m.gap + values_width, text_width(texts.label, m.scale));
    LegendLayout layout;
    layout.text_scale = m.scale;
    layout.panel.width = m.pad + content_width + m.pad;
    layout.panel.x = right - layout.panel.width;
    layout.panel.y = m.margin;
    layout.bar.x = layout.panel.x + m.pad;
    // Below the label, with room for the max value centred on the bar's top row.
    layout.bar.y = layout.panel.y + m.pad + m.cap + m.gap + m.cap / 2 + m.scale;
    layout.bar.width = m.bar_width;
    layout.bar.height = std::clamp(static_cast<int>(0.28f * static_cast<float>(height)), 4 * m.cap, 240 * m.scale);
    layout.panel.height = layout.bar.y + layout.bar.height + m.cap / 2 + m.pad - layout.panel.y;
    layouts.push_back(layout);
    right = layout.panel.x - m.margin / 2;
  }
  return layouts;
}

float legend_bar_t(const PixelRect& bar, int y) {
  const float t =
      (static_cast<float>(bar.y + bar.height) - (static_cast<float>(y) + 0.5f)) / static_cast<float>(bar.height);
  return std::clamp(t, 0.0f, 1.0f);
}

void append_legend_overlay(const std::vector<Legend>& legends, int width, int height,
                           std::vector<gpu::OverlayVertex>& out) {
  const std::vector<LegendLayout> layouts = layout_legends(legends, width, height);
  const Metrics m = metrics_for(height);
  const gpu::vec4 panel_color{0.05f, 0.055f, 0.065f, 0.78f};
  const gpu::vec4 frame_color{0.62f, 0.64f, 0.68f, 1.0f};
  const gpu::vec4 text_color{0.90f, 0.91f, 0.93f, 1.0f};
  for (std::size_t i = 0; i < legends.size(); ++i) {
    const Legend& legend = legends[i];
    const LegendLayout& layout = layouts[i];
    const PixelRect& bar = layout.bar;
    const LegendTexts texts = texts_of(legend);
    add_rect(out, layout.panel, panel_color);
    add_rect(out, PixelRect{bar.x - 1, bar.y - 1, bar.width + 2, bar.height + 2}, frame_color);
    for (int y = bar.y; y < bar.y + bar.height; ++y) {
      const Rgba c = map_color(legend.map, legend_bar_t(bar, y));
      add_rect(out, PixelRect{bar.x, y, bar.width, 1}, gpu::vec4{c.r, c.g, c.b, 1.0f});
    }
    add_text(out, texts.label, layout.panel.x + m.pad, layout.panel.y + m.pad, m.scale, text_color);
    // Values beside ticks at the top, middle (if there is room) and bottom rows.
    const int text_x = bar.x + bar.width + m.tick + m.gap;
    const auto value_at = [&](const std::string& text, int row) {
      add_rect(out, PixelRect{bar.x + bar.width + 1, row, m.tick, m.scale}, frame_color);
      add_text(out, text, text_x, row - m.cap / 2, m.scale, text_color);
    };
    value_at(texts.max, bar.y);
    if (bar.height >= 5 * m.cap) value_at(texts.mid, bar.y + bar.height / 2);
    value_at(texts.min, bar.y + bar.height - m.scale);
  }
}

}  // namespace nudge::render
