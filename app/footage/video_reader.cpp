#include "footage/video_reader.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <deque>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
}

namespace nudge::footage {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxSequenceFrames = 1'000'000;
constexpr size_t kCachedFrames = 8;

std::string av_message(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

// Owners of FFmpeg's objects, so every path out of a function frees them.
struct FormatCloser {
  void operator()(AVFormatContext* c) const { avformat_close_input(&c); }
};
struct CodecFreer {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct FrameFreer {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};
struct PacketFreer {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct SwsFreer {
  void operator()(SwsContext* s) const { sws_freeContext(s); }
};
using FormatPtr = std::unique_ptr<AVFormatContext, FormatCloser>;
using CodecPtr = std::unique_ptr<AVCodecContext, CodecFreer>;
using FramePtr = std::unique_ptr<AVFrame, FrameFreer>;
using PacketPtr = std::unique_ptr<AVPacket, PacketFreer>;

// One open video stream with its decoder.
struct Stream {
  FormatPtr format;
  CodecPtr codec;
  int index = -1;
};

Result<Stream> open_stream(const fs::path& path) {
  const std::string name = path.string();
  AVFormatContext* raw = nullptr;
  if (int code = avformat_open_input(&raw, name.c_str(), nullptr, nullptr); code < 0)
    return Error{name + ": cannot be opened as a video or an image: " + av_message(code)};
  Stream s;
  s.format.reset(raw);
  if (int code = avformat_find_stream_info(raw, nullptr); code < 0)
    return Error{name + ": cannot be read as a video: " + av_message(code)};
  const AVCodec* decoder = nullptr;
  s.index = av_find_best_stream(raw, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
  if (s.index < 0 || !decoder) return Error{name + ": has no video stream that this FFmpeg can decode"};
  s.codec.reset(avcodec_alloc_context3(decoder));
  if (!s.codec) return Error{name + ": out of memory for a decoder"};
  if (int code = avcodec_parameters_to_context(s.codec.get(), raw->streams[s.index]->codecpar); code < 0)
    return Error{name + ": unusable codec parameters: " + av_message(code)};
  if (int code = avcodec_open2(s.codec.get(), decoder, nullptr); code < 0)
    return Error{name + ": the decoder does not open: " + av_message(code)};
  if (s.codec->width <= 0 || s.codec->height <= 0) return Error{name + ": the video has no frame size"};
  return s;
}

// Nothing when swscale cannot convert the frame's pixel format.
std::optional<Image> to_rgb(const AVFrame* frame, std::unique_ptr<SwsContext, SwsFreer>& sws) {
  Image image;
  image.width = frame->width, image.height = frame->height;
  image.rgb.resize(size_t(image.width) * size_t(image.height) * 3);
  sws.reset(sws_getCachedContext(sws.release(), frame->width, frame->height, AVPixelFormat(frame->format), frame->width,
                                 frame->height, AV_PIX_FMT_RGB24, SWS_BICUBIC, nullptr, nullptr, nullptr));
  if (!sws) return std::nullopt;
  uint8_t* planes[4] = {image.rgb.data(), nullptr, nullptr, nullptr};
  int strides[4] = {3 * image.width, 0, 0, 0};
  sws_scale(sws.get(), frame->data, frame->linesize, 0, frame->height, planes, strides);
  return image;
}

// The single image in a file (a frame of an image sequence).
Result<Image> decode_image(const fs::path& path, std::unique_ptr<SwsContext, SwsFreer>& sws) {
  Result<Stream> s = open_stream(path);
  if (!s) return s.error();
  PacketPtr packet(av_packet_alloc());
  FramePtr frame(av_frame_alloc());
  bool draining = false;
  while (true) {
    if (!draining) {
      const int code = av_read_frame(s->format.get(), packet.get());
      if (code < 0) {
        draining = true;
        avcodec_send_packet(s->codec.get(), nullptr);
      } else {
        if (packet->stream_index == s->index) avcodec_send_packet(s->codec.get(), packet.get());
        av_packet_unref(packet.get());
      }
    }
    const int got = avcodec_receive_frame(s->codec.get(), frame.get());
    if (got == 0) {
      if (std::optional<Image> image = to_rgb(frame.get(), sws)) return std::move(*image);
      return Error{path.string() + ": its pixel format cannot be converted to RGB"};
    }
    if (got != AVERROR(EAGAIN) || draining) return Error{path.string() + ": holds no decodable image"};
  }
}

bool is_image_file(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg";
}

// The files of an image sequence: a folder's images in name order, or a printf pattern's
// files from its first number (0 or 1) on until one is missing.
Result<std::vector<fs::path>> sequence_files(const fs::path& path) {
  std::vector<fs::path> files;
  std::error_code error;
  if (fs::is_directory(path, error)) {
    for (const fs::directory_entry& entry : fs::directory_iterator(path, error))
      if (entry.is_regular_file() && is_image_file(entry.path())) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    if (files.empty()) return Error{path.string() + ": the folder has no PNG or JPEG images"};
    return files;
  }
  const std::string pattern = path.string();
  const auto name_of = [&](int i) {
    std::vector<char> text(pattern.size() + 32);
    std::snprintf(text.data(), text.size(), pattern.c_str(), i);
    return fs::path(text.data());
  };
  int first = -1;
  for (int i = 0; i <= 1 && first < 0; ++i)
    if (fs::exists(name_of(i), error)) first = i;
  if (first < 0)
    return Error{pattern + ": no file of this image sequence exists (looked for " + name_of(0).string() + ")"};
  for (int i = first; i < first + kMaxSequenceFrames && fs::exists(name_of(i), error); ++i) files.push_back(name_of(i));
  return files;
}

// A pattern names a sequence when it has exactly one integer conversion (%d, %04d).
bool is_pattern(const std::string& name) {
  const size_t at = name.find('%');
  if (at == std::string::npos) return false;
  size_t k = at + 1;
  while (k < name.size() && std::isdigit(static_cast<unsigned char>(name[k]))) ++k;
  return k < name.size() && name[k] == 'd' && name.find('%', k) == std::string::npos;
}

}  // namespace

struct VideoReader::State {
  fs::path path;
  int width = 0, height = 0;
  double fps = 0;
  std::unique_ptr<SwsContext, SwsFreer> sws;
  std::deque<std::pair<int, Image>> cache;  // most recent first

  // An image sequence:
  std::vector<fs::path> files;
  // A video file:
  Stream stream;
  std::vector<int64_t> pts;      // presentation time of each frame, ascending
  std::vector<int64_t> key_pts;  // of the keyframes, ascending
  int next = -1;                 // the frame that decoding on yields next, -1 if unknown
  bool drained = false;          // the decoder was sent the end of the stream
  PacketPtr packet{av_packet_alloc()};
  FramePtr decoded{av_frame_alloc()};

  int count() const { return files.empty() ? int(pts.size()) : int(files.size()); }
  std::string where(int index) const {
    return path.string() + ": frame " + std::to_string(index) + " of " + std::to_string(count());
  }

  void remember(int index, const Image& image) {
    cache.emplace_front(index, image);
    if (cache.size() > kCachedFrames) cache.pop_back();
  }

  void seek_before(int index) {
    const auto key = std::upper_bound(key_pts.begin(), key_pts.end(), pts[size_t(index)]);
    const int64_t target = key == key_pts.begin() ? pts.front() : *(key - 1);
    av_seek_frame(stream.format.get(), stream.index, target, AVSEEK_FLAG_BACKWARD);
    avcodec_flush_buffers(stream.codec.get());
    drained = false;
    next = -1;
  }

  // Decodes on until frame `index` comes out. Frames before it pass by.
  Result<Image> decode_until(int index) {
    const int64_t wanted = pts[size_t(index)];
    while (true) {
      const int got = avcodec_receive_frame(stream.codec.get(), decoded.get());
      if (got == 0) {
        int64_t t = decoded->best_effort_timestamp;
        if (t == AV_NOPTS_VALUE) t = decoded->pts;
        const auto at = std::lower_bound(pts.begin(), pts.end(), t);
        const int frame = at != pts.end() && *at == t ? int(at - pts.begin()) : -1;
        if (frame >= 0) next = frame + 1;
        if (t == wanted) {
          std::optional<Image> image = to_rgb(decoded.get(), sws);
          av_frame_unref(decoded.get());
          if (!image) return Error{where(index) + ": its pixel format cannot be converted to RGB"};
          return std::move(*image);
        }
        av_frame_unref(decoded.get());
        if (t > wanted && frame >= 0) return Error{where(index) + ": decoding passed it without finding it"};
        continue;
      }
      if (got == AVERROR_EOF) return Error{where(index) + ": the stream ended before it"};
      if (got != AVERROR(EAGAIN)) return Error{where(index) + ": cannot be decoded: " + av_message(got)};
      // The decoder wants more input.
      const int read = av_read_frame(stream.format.get(), packet.get());
      if (read < 0) {
        if (drained) return Error{where(index) + ": the stream ended before it"};
        avcodec_send_packet(stream.codec.get(), nullptr);
        drained = true;
        continue;
      }
      if (packet->stream_index == stream.index) {
        const int sent = avcodec_send_packet(stream.codec.get(), packet.get());
        if (sent < 0 && sent != AVERROR(EAGAIN) && sent != AVERROR_INVALIDDATA) {
          av_packet_unref(packet.get());
          return Error{where(index) + ": cannot be decoded: " + av_message(sent)};
        }
      }
      av_packet_unref(packet.get());
    }
  }
};

VideoReader::VideoReader(std::unique_ptr<State> state) : state_(std::move(state)) {}
VideoReader::VideoReader(VideoReader&&) noexcept = default;
VideoReader& VideoReader::operator=(VideoReader&&) noexcept = default;
VideoReader::~VideoReader() = default;

int VideoReader::width() const { return state_->width; }
int VideoReader::height() const { return state_->height; }
int VideoReader::frame_count() const { return state_->count(); }
double VideoReader::fps() const { return state_->fps; }
const std::filesystem::path& VideoReader::path() const { return state_->path; }

Result<VideoReader> VideoReader::open(const std::filesystem::path& path, double sequence_fps) {
  av_log_set_level(AV_LOG_QUIET);  // failures come back as Errors, not log lines
  auto state = std::make_unique<State>();
  state->path = path;
  std::error_code error;
  const bool folder = fs::is_directory(path, error);
  if (!folder && !is_pattern(path.string()) && !fs::exists(path, error))
    return Error{path.string() + ": no such file or folder (expected a video file or an image sequence)"};

  if (folder || is_pattern(path.string()) || is_image_file(path)) {
    Result<std::vector<fs::path>> files = is_image_file(path) && !folder && !is_pattern(path.string())
                                              ? Result<std::vector<fs::path>>(std::vector{path})
                                              : sequence_files(path);
    if (!files) return files.error();
    state->files = std::move(*files);
    Result<Image> first = decode_image(state->files.front(), state->sws);
    if (!first) return first.error();
    state->width = first->width, state->height = first->height;
    state->fps = sequence_fps > 0 ? sequence_fps : 24.0;
    state->remember(0, *first);
    return VideoReader(std::move(state));
  }

  Result<Stream> stream = open_stream(path);
  if (!stream) return stream.error();
  state->stream = std::move(*stream);
  AVStream* s = state->stream.format->streams[state->stream.index];
  state->width = state->stream.codec->width, state->height = state->stream.codec->height;
  const AVRational rate = s->avg_frame_rate.num > 0 ? s->avg_frame_rate : s->r_frame_rate;
  state->fps = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : sequence_fps;

  // The index: every packet's presentation time (or decoding time where it has none).
  AVPacket* packet = state->packet.get();
  while (av_read_frame(state->stream.format.get(), packet) >= 0) {
    if (packet->stream_index == state->stream.index) {
      const int64_t t = packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts;
      // Packets marked to discard (before an edit list's start, as in a clip cut with
      // `-c copy`) are decoded as references but never shown: they are no frames, but
      // their keyframes are still where decoding may start.
      if (t != AV_NOPTS_VALUE) {
        if (!(packet->flags & AV_PKT_FLAG_DISCARD)) state->pts.push_back(t);
        if (packet->flags & AV_PKT_FLAG_KEY) state->key_pts.push_back(t);
      }
    }
    av_packet_unref(packet);
  }
  std::sort(state->pts.begin(), state->pts.end());
  state->pts.erase(std::unique(state->pts.begin(), state->pts.end()), state->pts.end());
  std::sort(state->key_pts.begin(), state->key_pts.end());
  if (state->pts.empty()) return Error{path.string() + ": the video has no frames"};
  if (state->key_pts.empty()) state->key_pts.push_back(state->pts.front());
  state->seek_before(0);
  return VideoReader(std::move(state));
}

Result<Image> VideoReader::frame(int index) {
  State& s = *state_;
  if (index < 0 || index >= s.count())
    return Error{s.path.string() + ": there is no frame " + std::to_string(index) + "; expected 0 to " +
                 std::to_string(s.count() - 1)};
  for (const auto& [cached, image] : s.cache)
    if (cached == index) return image;
  Result<Image> image = Error{""};
  if (!s.files.empty()) {
    image = decode_image(s.files[size_t(index)], s.sws);
    if (!image) return Error{s.where(index) + ": " + image.error().message};
    if (image->width != s.width || image->height != s.height)
      return Error{s.where(index) + ": " + s.files[size_t(index)].string() + " is " + std::to_string(image->width) +
                   " x " + std::to_string(image->height) + ", the sequence's first image " + std::to_string(s.width) +
                   " x " + std::to_string(s.height)};
  } else {
    if (s.next != index) s.seek_before(index);
    image = s.decode_until(index);
    if (!image) {  // a seek that landed past the keyframe: decode from the start
      s.seek_before(0);
      image = s.decode_until(index);
    }
  }
  if (!image) return image.error();
  s.remember(index, *image);
  return image;
}

}  // namespace nudge::footage
