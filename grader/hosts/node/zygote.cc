// The fork server's native part (./zygote.mjs, ./child.cjs): a Node process whose sandbox realm is
// ready (the guest evaluated and started: for Python the interpreter with numpy imported) makes each
// submission's child as a copy of itself, by fork(2), instead of a Node process started from nothing.
// Node offers no fork; this N-API addon does it, built by ./zygote.mjs with the system's compiler and
// Node's headers, loaded only by the fork server (--allow-addons), never reachable from a realm.
//   fork(dataFd, errFd, closeFds) → the child's pid in the server; 0 in the child, whose fds 0 and 3
//     (frames in and out, child.cjs) are then `dataFd` and fd 2 `errFd`, the other slots' fds
//     (`closeFds`) closed, libuv's loop made its own (uv_loop_fork), and which is killed if the server
//     ends; a negative errno if fork failed
//   reap() → [pid, status, …] of children that ended (waitpid, WNOHANG)
//   exit(code): _exit, no teardown (the threads of V8's platform stayed in the server; a fork has only
//     the thread that forked, so Node's own exit, which joins them, must not run there)
#include <errno.h>
#include <fcntl.h>
#include <node_api.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

namespace {

int32_t int_arg(napi_env env, napi_value v) {
  int32_t x = -1;
  napi_get_value_int32(env, v, &x);
  return x;
}

napi_value int_value(napi_env env, int32_t x) {
  napi_value out;
  napi_create_int32(env, x, &out);
  return out;
}

// V8 marks the pages it maps MADV_DONTFORK (a fork would otherwise find its heap missing): undone for
// every mapping just before the fork, so that the child inherits the whole process, copy-on-write.
void inherit_all_mappings() {
  FILE* maps = fopen("/proc/self/maps", "re");
  if (!maps) return;
  char line[512];
  while (fgets(line, sizeof line, maps)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx", &lo, &hi) == 2) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DOFORK);
  }
  fclose(maps);
}

napi_value Fork(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  if (argc < 3) return int_value(env, -EINVAL);
  const int data = int_arg(env, argv[0]), err = int_arg(env, argv[1]);
  uint32_t n = 0;
  napi_get_array_length(env, argv[2], &n);
  int close_fds[64];
  if (n > 64) return int_value(env, -EINVAL);
  for (uint32_t i = 0; i < n; i++) {
    napi_value v;
    napi_get_element(env, argv[2], i, &v);
    close_fds[i] = int_arg(env, v);
  }
  inherit_all_mappings();
  const pid_t server = getpid();
  const pid_t pid = fork();
  if (pid < 0) return int_value(env, -errno);
  if (pid > 0) {
    close(data);
    close(err);
    return int_value(env, pid);
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != server) _exit(71);  // the server ended before the line above
  fcntl(data, F_SETFL, fcntl(data, F_GETFL) | O_NONBLOCK);  // libuv reads until EAGAIN
  if (dup2(data, 0) < 0 || dup2(data, 3) < 0 || dup2(err, 2) < 0) _exit(72);
  for (uint32_t i = 0; i < n; i++) close(close_fds[i]);
  if (uv_loop_fork(uv_default_loop()) != 0) _exit(73);
  return int_value(env, 0);
}

napi_value Reap(napi_env env, napi_callback_info) {
  napi_value list;
  napi_create_array(env, &list);
  uint32_t n = 0;
  int status;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    napi_set_element(env, list, n++, int_value(env, pid));
    napi_set_element(env, list, n++, int_value(env, status));
  }
  return list;
}

napi_value Exit(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
  _exit(argc ? int_arg(env, argv[0]) & 255 : 0);
}

}  // namespace

NAPI_MODULE_INIT() {
  napi_property_descriptor d[] = {
      {"fork", nullptr, Fork, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"reap", nullptr, Reap, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"exit", nullptr, Exit, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, 3, d);
  return exports;
}
