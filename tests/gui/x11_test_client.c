// x11_test_client: acts on an X display ($DISPLAY) as a user, window manager or file manager
// would, so that GUI tests under Xvfb can drive the app's window. Xlib only, on purpose: the
// test machines have libx11-dev but not necessarily XTEST or xdotool.
//
//   x11_test_client wait-window TITLE_SUBSTRING TIMEOUT_SECONDS   print the window id (hex)
//   x11_test_client title TITLE_SUBSTRING                          print the full title
//   x11_test_client geometry TITLE_SUBSTRING                       print "X Y WIDTH HEIGHT" (root)
//   x11_test_client drop TITLE_SUBSTRING FILE_PATH [X Y]           drop a file with XDND 5
//   x11_test_client close TITLE_SUBSTRING                          send WM_DELETE_WINDOW
//   x11_test_client resize TITLE_SUBSTRING WIDTH HEIGHT            resize the window
//   x11_test_client click TITLE_SUBSTRING X Y                      left click at window-relative X Y
//   x11_test_client minimise TITLE_SUBSTRING SECONDS               unmap it for a while (as a
//                                                                  window manager minimises), then map it
//   x11_test_client key TITLE_SUBSTRING [ctrl+][shift+]KEYSYM_NAME  send a key press and release
//   x11_test_client drag TITLE_SUBSTRING X1 Y1 X2 Y2 [ctrl|shift|none][+right]  a drag (left button, or right)
//
// Exit codes: 0 done, 1 the action failed (no such window, timeout, refused), 2 bad usage or no
// display. Every failure names what failed on stderr.

#define _POSIX_C_SOURCE 200809L

#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

enum { EXIT_FAILED = 1, EXIT_USAGE = 2 };
enum { XDND_VERSION = 5 };
static const double XDND_TIMEOUT_S = 5.0;

static Display* dpy;
static int last_x_error;  // set by record_x_error

static void fail(int code, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  fputs("x11_test_client: ", stderr);
  vfprintf(stderr, fmt, args);
  fputc('\n', stderr);
  va_end(args);
  exit(code);
}

// Fails when an X request since the last check raised an error (e.g. the window vanished).
static void check_x_errors(const char* what) {
  XSync(dpy, False);
  if (last_x_error) {
    char text[256];
    XGetErrorText(dpy, last_x_error, text, sizeof text);
    fail(EXIT_FAILED, "%s: X error: %s", what, text);
  }
}

static Atom atom(const char* name) { return XInternAtom(dpy, name, False); }

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_s(double seconds) {
  struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
  nanosleep(&ts, NULL);
}

// Windows may vanish while we walk the tree (or the app may exit mid-protocol); such errors
// must not kill the client, so they are recorded and the caller looks at them.
static int record_x_error(Display* d, XErrorEvent* e) {
  (void)d;
  last_x_error = e->error_code;
  return 0;
}

// ---- Finding the window -----------------------------------------------------------------

// The title as the user sees it: _NET_WM_NAME (UTF-8) when set, else WM_NAME. Caller frees.
static char* window_title(Window w) {
  Atom type;
  int format;
  unsigned long count, after;
  unsigned char* data = NULL;
  if (XGetWindowProperty(dpy, w, atom("_NET_WM_NAME"), 0, 1 << 16, False, atom("UTF8_STRING"),
                         &type, &format, &count, &after, &data) == Success &&
      data && type == atom("UTF8_STRING") && format == 8) {
    char* title = strndup((const char*)data, count);
    XFree(data);
    return title;
  }
  if (data) XFree(data);

  XTextProperty prop;
  if (!XGetWMName(dpy, w, &prop) || !prop.value) return NULL;
  char** list = NULL;
  int n = 0;
  char* title = NULL;
  if (Xutf8TextPropertyToTextList(dpy, &prop, &list, &n) >= Success && n > 0 && list)
    title = strdup(list[0]);
  else
    title = strndup((const char*)prop.value, prop.nitems);  // undecodable: raw bytes
  if (list) XFreeStringList(list);
  XFree(prop.value);
  return title;
}

// Depth-first search for a viewable window whose title contains `needle`. Searching below
// the root's children too finds the client window when a reparenting window manager runs.
static Window find_in_tree(Window parent, const char* needle) {
  Window root_ret, parent_ret, *children = NULL;
  unsigned int n = 0;
  if (!XQueryTree(dpy, parent, &root_ret, &parent_ret, &children, &n)) return None;
  Window found = None;
  for (unsigned int i = 0; i < n && found == None; i++) {
    XWindowAttributes attr;
    if (!XGetWindowAttributes(dpy, children[i], &attr) || attr.map_state != IsViewable) continue;
    char* title = window_title(children[i]);
    if (title && strstr(title, needle)) found = children[i];
    free(title);
    if (found == None) found = find_in_tree(children[i], needle);
  }
  if (children) XFree(children);
  return found;
}

static Window find_window(const char* needle) {
  Window found = find_in_tree(DefaultRootWindow(dpy), needle);
  XSync(dpy, False);
  last_x_error = 0;  // errors from other windows vanishing mid-walk are no concern
  return found;
}

static Window require_window(const char* needle) {
  Window w = find_window(needle);
  if (w == None) fail(EXIT_FAILED, "no mapped window whose title contains \"%s\"", needle);
  return w;
}

// ---- Helpers for talking to the window ---------------------------------------------------

// A window of our own: the XDND source and the owner of its selection, as in a file manager.
static Window make_own_window(void) {
  XSetWindowAttributes attrs = {.event_mask = PropertyChangeMask};
  return XCreateWindow(dpy, DefaultRootWindow(dpy), -10, -10, 1, 1, 0, 0, InputOnly,
                       CopyFromParent, CWEventMask, &attrs);
}

// A real server timestamp (from a PropertyNotify on our window): selection ownership and
// XDND want one rather than CurrentTime.
static Time server_time(Window own) {
  Atom prop = atom("X11_TEST_CLIENT_TIMESTAMP");
  XChangeProperty(dpy, own, prop, XA_STRING, 8, PropModeAppend, NULL, 0);
  XEvent ev;
  do XWindowEvent(dpy, own, PropertyChangeMask, &ev);
  while (ev.xproperty.atom != prop);
  return ev.xproperty.time;
}

static void send_client_message(Window to, Atom type, long l0, long l1, long l2, long l3,
                                long l4) {
  XEvent ev = {0};
  ev.xclient.type = ClientMessage;
  ev.xclient.window = to;
  ev.xclient.message_type = type;
  ev.xclient.format = 32;
  long data[5] = {l0, l1, l2, l3, l4};
  memcpy(ev.xclient.data.l, data, sizeof data);
  if (!XSendEvent(dpy, to, False, NoEventMask, &ev))
    fail(EXIT_FAILED, "XSendEvent of a client message to window 0x%lx failed", to);
  XFlush(dpy);
}

// Waits up to `deadline` (now_s() clock) for the next event; returns 0 on timeout.
static int next_event_before(double deadline, XEvent* ev) {
  while (!XPending(dpy)) {
    double left = deadline - now_s();
    if (left <= 0) return 0;
    int fd = ConnectionNumber(dpy);
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(fd, &fds);
    struct timeval tv = {(time_t)left, (suseconds_t)((left - (double)(time_t)left) * 1e6)};
    if (select(fd + 1, &fds, NULL, NULL, &tv) < 0 && errno != EINTR)
      fail(EXIT_FAILED, "select on the X connection failed: %s", strerror(errno));
  }
  XNextEvent(dpy, ev);
  return 1;
}

// ---- Commands ------------------------------------------------------------------------------

static int cmd_wait_window(const char* needle, const char* timeout_arg) {
  char* end;
  double timeout = strtod(timeout_arg, &end);
  if (*end || timeout < 0) fail(EXIT_USAGE, "TIMEOUT_SECONDS must be a number >= 0, got \"%s\"", timeout_arg);
  double deadline = now_s() + timeout;
  for (;;) {
    Window w = find_window(needle);
    if (w != None) {
      printf("0x%lx\n", w);
      return 0;
    }
    if (now_s() >= deadline) break;
    sleep_s(0.1);
  }
  fail(EXIT_FAILED, "timed out after %s s waiting for a mapped window whose title contains \"%s\"",
       timeout_arg, needle);
  return EXIT_FAILED;
}

static int cmd_title(const char* needle) {
  char* title = window_title(require_window(needle));
  printf("%s\n", title ? title : "");
  free(title);
  return 0;
}

static void window_root_rect(Window w, int* x, int* y, int* width, int* height) {
  XWindowAttributes attr;
  Window child;
  if (!XGetWindowAttributes(dpy, w, &attr)) fail(EXIT_FAILED, "window 0x%lx vanished", w);
  XTranslateCoordinates(dpy, w, DefaultRootWindow(dpy), 0, 0, x, y, &child);
  *width = attr.width;
  *height = attr.height;
}

static int cmd_geometry(const char* needle) {
  int x, y, width, height;
  window_root_rect(require_window(needle), &x, &y, &width, &height);
  printf("%d %d %d %d\n", x, y, width, height);
  return 0;
}

static int cmd_close(const char* needle) {
  Window w = require_window(needle);
  Atom wm_delete = atom("WM_DELETE_WINDOW");
  // A window manager only sends WM_DELETE_WINDOW to clients that list it in WM_PROTOCOLS
  // (it kills the others), so a window without it is an app bug worth naming.
  Atom* protocols = NULL;
  int n = 0, listed = 0;
  if (XGetWMProtocols(dpy, w, &protocols, &n))
    for (int i = 0; i < n; i++) listed |= protocols[i] == wm_delete;
  if (protocols) XFree(protocols);
  if (!listed) fail(EXIT_FAILED, "window 0x%lx does not list WM_DELETE_WINDOW in WM_PROTOCOLS", w);
  send_client_message(w, atom("WM_PROTOCOLS"), (long)wm_delete, CurrentTime, 0, 0, 0);
  check_x_errors("close");
  return 0;
}

// Without a window manager the client's own requests take effect directly.
static int cmd_resize(const char* needle, const char* width_arg, const char* height_arg) {
  const int width = atoi(width_arg), height = atoi(height_arg);
  if (width <= 0 || height <= 0) fail(EXIT_USAGE, "resize: \"%s x %s\" is not a size", width_arg, height_arg);
  Window w = require_window(needle);
  XResizeWindow(dpy, w, (unsigned)width, (unsigned)height);
  XSync(dpy, False);
  check_x_errors("resize");
  return 0;
}

static int cmd_minimise(const char* needle, const char* seconds_arg) {
  const double seconds = atof(seconds_arg);
  if (!(seconds >= 0 && seconds <= 600)) fail(EXIT_USAGE, "minimise: \"%s\" is not a time in seconds", seconds_arg);
  Window w = require_window(needle);
  XUnmapWindow(dpy, w);
  XSync(dpy, False);
  struct timespec pause = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
  nanosleep(&pause, NULL);
  XMapWindow(dpy, w);
  XSync(dpy, False);
  check_x_errors("minimise");
  return 0;
}

// Sends one key event (press or release) of `code` with modifier `state` to `w`.
static void send_key(Window w, int type, KeyCode code, unsigned int state, Time time, int x, int y, int width,
                     int height) {
  XKeyEvent ev = {0};
  ev.display = dpy;
  ev.window = w;
  ev.root = DefaultRootWindow(dpy);
  ev.time = time;
  ev.x = width / 2;
  ev.y = height / 2;
  ev.x_root = x + width / 2;
  ev.y_root = y + height / 2;
  ev.keycode = code;
  ev.state = state;
  ev.same_screen = True;
  ev.type = type;
  // A synthetic event (XSendEvent): it reaches the window whatever holds the focus.
  if (!XSendEvent(dpy, w, True, type == KeyPress ? KeyPressMask : KeyReleaseMask, (XEvent*)&ev))
    fail(EXIT_FAILED, "XSendEvent of a key event to window 0x%lx failed", w);
  check_x_errors("key");
}

static KeyCode require_keycode(const char* keysym_name, KeySym* sym_out) {
  KeySym sym = XStringToKeysym(keysym_name);
  if (sym == NoSymbol) fail(EXIT_USAGE, "unknown keysym name \"%s\" (see X11/keysymdef.h)", keysym_name);
  KeyCode code = XKeysymToKeycode(dpy, sym);
  if (!code) fail(EXIT_FAILED, "keysym \"%s\" is on no key of the server's keyboard map", keysym_name);
  if (sym_out) *sym_out = sym;
  return code;
}

// KEYSYM_NAME may start with modifiers: "ctrl+z", "ctrl+shift+z", "shift+Delete". The
// modifier keys go down first and up last, as a person presses them, so that apps that
// track modifier keys themselves (GLFW) see them.
static int cmd_key(const char* needle, const char* keysym_name) {
  int ctrl = 0, shift = 0;
  for (;;) {
    if (!strncmp(keysym_name, "ctrl+", 5)) ctrl = 1, keysym_name += 5;
    else if (!strncmp(keysym_name, "shift+", 6)) shift = 1, keysym_name += 6;
    else break;
  }
  KeySym sym;
  KeyCode code = require_keycode(keysym_name, &sym);
  KeyCode ctrl_code = require_keycode("Control_L", NULL), shift_code = require_keycode("Shift_L", NULL);
  Window w = require_window(needle);
  int x, y, width, height;
  window_root_rect(w, &x, &y, &width, &height);
  Window own = make_own_window();
  Time t = server_time(own);

  unsigned int state = 0;
  if (ctrl) send_key(w, KeyPress, ctrl_code, state, t, x, y, width, height), state |= ControlMask;
  if (shift) send_key(w, KeyPress, shift_code, state, t, x, y, width, height), state |= ShiftMask;
  // Shift when the keysym is the key's shifted symbol (e.g. "A", "question").
  XKeyEvent probe = {0};
  probe.display = dpy;
  probe.keycode = code;
  if (XLookupKeysym(&probe, 0) != sym) state |= ShiftMask;
  if (ctrl || shift) sleep_s(0.05);
  // The key stays down for 100 ms so that apps that poll key state see it in some frame.
  send_key(w, KeyPress, code, state, t, x, y, width, height);
  sleep_s(0.1);
  send_key(w, KeyRelease, code, state, t + 100, x, y, width, height);
  if (shift) send_key(w, KeyRelease, shift_code, state, t + 150, x, y, width, height), state &= ~(unsigned)ShiftMask;
  if (ctrl) send_key(w, KeyRelease, ctrl_code, state, t + 150, x, y, width, height);
  return 0;
}

// Moves the pointer to window-relative (cx, cy) with the buttons and modifiers `state`
// held: the real pointer, since apps that poll it (XQueryPointer, as GLFW's
// glfwGetCursorPos does) must find it where the events say, and a MotionNotify.
static void move_pointer(Window w, Window own, int x, int y, int cx, int cy, unsigned int state) {
  XWarpPointer(dpy, None, DefaultRootWindow(dpy), 0, 0, 0, 0, x + cx, y + cy);
  XSync(dpy, False);
  XEvent ev;
  memset(&ev, 0, sizeof ev);
  ev.xmotion.type = MotionNotify;
  ev.xmotion.display = dpy;
  ev.xmotion.window = w;
  ev.xmotion.root = DefaultRootWindow(dpy);
  ev.xmotion.time = server_time(own);
  ev.xmotion.x = cx;
  ev.xmotion.y = cy;
  ev.xmotion.x_root = x + cx;
  ev.xmotion.y_root = y + cy;
  ev.xmotion.state = state;
  ev.xmotion.same_screen = True;
  if (!XSendEvent(dpy, w, True, PointerMotionMask, &ev)) fail(EXIT_FAILED, "XSendEvent of MotionNotify failed");
  check_x_errors("pointer motion");
}

static void send_button(Window w, Window own, int type, int x, int y, int cx, int cy, unsigned int state,
                        unsigned int which) {
  XButtonEvent button;
  memset(&button, 0, sizeof button);
  button.type = type;
  button.display = dpy;
  button.window = w;
  button.root = DefaultRootWindow(dpy);
  button.time = server_time(own);
  button.x = cx;
  button.y = cy;
  button.x_root = x + cx;
  button.y_root = y + cy;
  button.button = which;
  button.state = state;
  button.same_screen = True;
  if (!XSendEvent(dpy, w, True, type == ButtonPress ? ButtonPressMask : ButtonReleaseMask, (XEvent*)&button))
    fail(EXIT_FAILED, "XSendEvent of a button event failed");
  check_x_errors("button");
}

// A left-button drag from (X1, Y1) to (X2, Y2), window-relative, in 10 steps; MODIFIER
// ("ctrl", "shift" or "none", and "+right" for the right button: "ctrl+right") is held
// throughout. Slow on purpose: an app drawn by a
// software renderer may take a quarter of a second per frame, and must see the press
// where it happened, some steps of the way, and the release.
static int cmd_drag(const char* needle, char** coords, const char* modifier) {
  Window w = require_window(needle);
  int x, y, width, height;
  window_root_rect(w, &x, &y, &width, &height);
  const int x1 = atoi(coords[0]), y1 = atoi(coords[1]), x2 = atoi(coords[2]), y2 = atoi(coords[3]);
  if (x1 < 0 || y1 < 0 || x1 >= width || y1 >= height || x2 < 0 || y2 < 0 || x2 >= width || y2 >= height)
    fail(EXIT_USAGE, "drag: a point is outside the %dx%d window", width, height);
  unsigned int mods = 0, which = Button1, held = Button1Mask;
  KeyCode mod_code = 0;
  char key[16] = "none";
  if (modifier) {
    const char* plus = strstr(modifier, "+right");
    if (plus && !plus[6]) which = Button3, held = Button3Mask;
    snprintf(key, sizeof key, "%.*s", plus && !plus[6] ? (int)(plus - modifier) : (int)strlen(modifier), modifier);
  }
  if (!strcmp(key, "ctrl")) mods = ControlMask, mod_code = require_keycode("Control_L", NULL);
  else if (!strcmp(key, "shift")) mods = ShiftMask, mod_code = require_keycode("Shift_L", NULL);
  else if (strcmp(key, "none")) fail(EXIT_USAGE, "drag: modifier \"%s\" is not ctrl, shift or none (with +right or not)", modifier);
  Window own = make_own_window();
  move_pointer(w, own, x, y, x1, y1, 0);
  sleep_s(0.6);
  if (mod_code) send_key(w, KeyPress, mod_code, 0, server_time(own), x, y, width, height), sleep_s(0.3);
  send_button(w, own, ButtonPress, x, y, x1, y1, mods, which);
  sleep_s(0.6);
  for (int k = 1; k <= 10; ++k) {
    move_pointer(w, own, x, y, x1 + (x2 - x1) * k / 10, y1 + (y2 - y1) * k / 10, mods | held);
    sleep_s(0.15);
  }
  sleep_s(0.6);
  send_button(w, own, ButtonRelease, x, y, x2, y2, mods | held, which);
  sleep_s(0.1);
  if (mod_code) send_key(w, KeyRelease, mod_code, mods, server_time(own), x, y, width, height);
  return 0;
}

// A left click at window-relative (X, Y): the pointer moves there first, so that the app
// knows where the button went down.
static int cmd_click(const char* needle, const char* x_arg, const char* y_arg) {
  Window w = require_window(needle);
  int x, y, width, height;
  window_root_rect(w, &x, &y, &width, &height);
  const int cx = atoi(x_arg), cy = atoi(y_arg);
  if (cx < 0 || cy < 0 || cx >= width || cy >= height)
    fail(EXIT_USAGE, "click: %s,%s is outside the %dx%d window", x_arg, y_arg, width, height);
  Window own = make_own_window();
  move_pointer(w, own, x, y, cx, cy, 0);
  sleep_s(0.15);
  send_button(w, own, ButtonPress, x, y, cx, cy, 0, Button1);
  sleep_s(0.15);
  send_button(w, own, ButtonRelease, x, y, cx, cy, Button1Mask, Button1);
  return 0;
}

// file:// URI of an absolute path, percent-encoding every byte outside RFC 3986's unreserved
// set (and '/'), so spaces and UTF-8 bytes survive. Caller frees.
static char* file_uri(const char* path) {
  char* abs = NULL;
  if (path[0] == '/') {
    abs = strdup(path);
  } else {
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) fail(EXIT_FAILED, "getcwd failed: %s", strerror(errno));
    abs = malloc(strlen(cwd) + strlen(path) + 2);
    sprintf(abs, "%s/%s", cwd, path);
  }
  char* uri = malloc(strlen("file://") + 3 * strlen(abs) + 3);
  char* out = uri + sprintf(uri, "file://");
  for (const unsigned char* p = (const unsigned char*)abs; *p; p++) {
    if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
        strchr("-._~/", *p))
      *out++ = (char)*p;
    else
      out += sprintf(out, "%%%02X", *p);
  }
  strcpy(out, "\r\n");  // text/uri-list lines end in CRLF
  free(abs);
  return uri;
}

static const char* atom_name_or(Atom a, const char* fallback) {
  static char buf[256];
  char* name = a ? XGetAtomName(dpy, a) : NULL;
  snprintf(buf, sizeof buf, "%s", name ? name : fallback);
  if (name) XFree(name);
  return buf;
}

// Answers a SelectionRequest for the XdndSelection with the URI list (or refuses other
// targets), as the drag source must.
static void answer_selection_request(const XSelectionRequestEvent* req, const char* uri,
                                     Atom uri_list) {
  XEvent reply = {0};
  reply.xselection.type = SelectionNotify;
  reply.xselection.requestor = req->requestor;
  reply.xselection.selection = req->selection;
  reply.xselection.target = req->target;
  reply.xselection.time = req->time;
  reply.xselection.property = None;  // refused unless set below
  if (req->target == uri_list) {
    Atom property = req->property != None ? req->property : req->target;  // obsolete clients
    XChangeProperty(dpy, req->requestor, property, uri_list, 8, PropModeReplace,
                    (const unsigned char*)uri, (int)strlen(uri));
    reply.xselection.property = property;
  } else {
    fprintf(stderr, "x11_test_client: drop: refusing a request for target %s\n",
            atom_name_or(req->target, "None"));
  }
  XSendEvent(dpy, req->requestor, False, NoEventMask, &reply);
  XFlush(dpy);
}

static int cmd_drop(const char* needle, const char* path, const char* x_arg, const char* y_arg) {
  Window target = require_window(needle);
  Atom XdndAware = atom("XdndAware"), XdndSelection = atom("XdndSelection");
  Atom XdndEnter = atom("XdndEnter"), XdndPosition = atom("XdndPosition");
  Atom XdndStatus = atom("XdndStatus"), XdndLeave = atom("XdndLeave");
  Atom XdndDrop = atom("XdndDrop"), XdndFinished = atom("XdndFinished");
  Atom XdndActionCopy = atom("XdndActionCopy"), uri_list = atom("text/uri-list");

  // The target announces XDND support and its version on the window itself.
  Atom type;
  int format;
  unsigned long count, after;
  unsigned char* data = NULL;
  long target_version = -1;
  if (XGetWindowProperty(dpy, target, XdndAware, 0, 1, False, XA_ATOM, &type, &format, &count,
                         &after, &data) == Success && data && count == 1)
    target_version = (long)*(Atom*)data;
  if (data) XFree(data);
  if (target_version < 0)
    fail(EXIT_FAILED, "drop: window 0x%lx has no XdndAware property: it accepts no drops", target);
  long version = target_version < XDND_VERSION ? target_version : XDND_VERSION;

  // Drop point: window-relative, default the centre; XdndPosition carries root coordinates.
  int wx, wy, width, height;
  window_root_rect(target, &wx, &wy, &width, &height);
  int rel_x = width / 2, rel_y = height / 2;
  if (x_arg) {
    char *end_x, *end_y;
    rel_x = (int)strtol(x_arg, &end_x, 10);
    rel_y = (int)strtol(y_arg, &end_y, 10);
    if (*end_x || *end_y) fail(EXIT_USAGE, "drop: X and Y must be integers, got \"%s\" \"%s\"", x_arg, y_arg);
  }
  long root_x = wx + rel_x, root_y = wy + rel_y;

  char* uri = file_uri(path);
  Window source = make_own_window();
  Time time = server_time(source);
  XChangeProperty(dpy, source, atom("XdndTypeList"), XA_ATOM, 32, PropModeReplace,
                  (const unsigned char*)&uri_list, 1);
  XSetSelectionOwner(dpy, XdndSelection, source, time);
  if (XGetSelectionOwner(dpy, XdndSelection) != source)
    fail(EXIT_FAILED, "drop: could not take ownership of the XdndSelection");

  // Enter with up to three types inline (bit 0 of l[1] clear), then hover over the point.
  send_client_message(target, XdndEnter, (long)source, version << 24, (long)uri_list, None, None);
  send_client_message(target, XdndPosition, (long)source, 0, (root_x << 16) | (root_y & 0xffff),
                      (long)time, (long)XdndActionCopy);

  double deadline = now_s() + XDND_TIMEOUT_S;
  int accepted = -1;
  XEvent ev;
  while (accepted < 0) {
    if (!next_event_before(deadline, &ev))
      fail(EXIT_FAILED, "drop: no XdndStatus from window 0x%lx within %.0f s after XdndPosition",
           target, XDND_TIMEOUT_S);
    if (ev.type == ClientMessage && ev.xclient.message_type == XdndStatus)
      accepted = (int)(ev.xclient.data.l[1] & 1);
  }
  if (!accepted) {
    send_client_message(target, XdndLeave, (long)source, 0, 0, 0, 0);
    fail(EXIT_FAILED, "drop: window 0x%lx refused the drag (XdndStatus without accept; "
         "it wants no text/uri-list?)", target);
  }

  send_client_message(target, XdndDrop, (long)source, 0, (long)time, 0, 0);
  deadline = now_s() + XDND_TIMEOUT_S;
  int data_sent = 0;
  for (;;) {
    if (!next_event_before(deadline, &ev))
      fail(EXIT_FAILED, "drop: no XdndFinished from window 0x%lx within %.0f s after XdndDrop (%s)",
           target, XDND_TIMEOUT_S,
           data_sent ? "it took the data" : "it never asked for the data");
    if (ev.type == SelectionRequest && ev.xselectionrequest.selection == XdndSelection) {
      answer_selection_request(&ev.xselectionrequest, uri, uri_list);
      data_sent |= ev.xselectionrequest.target == uri_list;
    } else if (ev.type == ClientMessage && ev.xclient.message_type == XdndFinished) {
      // XDND 5 puts "accepted" in bit 0 of l[1]; GLFW puts the item count of the data there,
      // which is even half the time, so any non-zero value counts as success.
      if (version >= 5 && ev.xclient.data.l[1] == 0)
        fail(EXIT_FAILED, "drop: window 0x%lx finished the drop but rejected it", target);
      break;
    }
  }
  uri[strlen(uri) - 2] = '\0';
  printf("dropped %s\n", uri);
  free(uri);
  XSetSelectionOwner(dpy, XdndSelection, None, time);
  XDestroyWindow(dpy, source);
  check_x_errors("drop");
  return 0;
}

static void usage(void) {
  fputs("usage:\n"
        "  x11_test_client wait-window TITLE_SUBSTRING TIMEOUT_SECONDS\n"
        "  x11_test_client title TITLE_SUBSTRING\n"
        "  x11_test_client geometry TITLE_SUBSTRING\n"
        "  x11_test_client drop TITLE_SUBSTRING FILE_PATH [X Y]\n"
        "  x11_test_client close TITLE_SUBSTRING\n"
        "  x11_test_client key TITLE_SUBSTRING [ctrl+][shift+]KEYSYM_NAME\n"
        "  x11_test_client resize TITLE_SUBSTRING WIDTH HEIGHT\n"
        "  x11_test_client minimise TITLE_SUBSTRING SECONDS\n"
        "  x11_test_client click TITLE_SUBSTRING X Y\n"
        "  x11_test_client drag TITLE_SUBSTRING X1 Y1 X2 Y2 [ctrl|shift|none]\n"
        "Acts on the X display named by $DISPLAY.\n",
        stderr);
  exit(EXIT_USAGE);
}

int main(int argc, char** argv) {
  if (argc < 3) usage();
  const char* cmd = argv[1];
  const char* needle = argv[2];
  int n = argc - 3;  // arguments after the title
  int known = (!strcmp(cmd, "wait-window") && n == 1) || (!strcmp(cmd, "title") && n == 0) ||
              (!strcmp(cmd, "geometry") && n == 0) || (!strcmp(cmd, "close") && n == 0) ||
              (!strcmp(cmd, "key") && n == 1) || (!strcmp(cmd, "drop") && (n == 1 || n == 3)) ||
              (!strcmp(cmd, "resize") && n == 2) || (!strcmp(cmd, "minimise") && n == 1) ||
              (!strcmp(cmd, "click") && n == 2) || (!strcmp(cmd, "drag") && (n == 4 || n == 5));
  if (!known) usage();

  const char* display_name = getenv("DISPLAY");
  dpy = XOpenDisplay(NULL);
  if (!dpy) fail(EXIT_USAGE, "cannot open X display \"%s\"", display_name ? display_name : "(DISPLAY unset)");
  XSetErrorHandler(record_x_error);

  if (!strcmp(cmd, "wait-window")) return cmd_wait_window(needle, argv[3]);
  if (!strcmp(cmd, "title")) return cmd_title(needle);
  if (!strcmp(cmd, "geometry")) return cmd_geometry(needle);
  if (!strcmp(cmd, "close")) return cmd_close(needle);
  if (!strcmp(cmd, "key")) return cmd_key(needle, argv[3]);
  if (!strcmp(cmd, "resize")) return cmd_resize(needle, argv[3], argv[4]);
  if (!strcmp(cmd, "minimise")) return cmd_minimise(needle, argv[3]);
  if (!strcmp(cmd, "click")) return cmd_click(needle, argv[3], argv[4]);
  if (!strcmp(cmd, "drag")) return cmd_drag(needle, argv + 3, n == 5 ? argv[7] : NULL);
  return cmd_drop(needle, argv[3], n == 3 ? argv[4] : NULL, n == 3 ? argv[5] : NULL);
}
