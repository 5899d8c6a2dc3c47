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
//   park() → how many of Node's platform threads now run a task that never ends, once all of them do
//     (-1 if they did not within 10 s); the server then leaves by exit() too (Node's exit would join them). Called once before the first fork: an idle platform thread
//     waits on its task queue's condition variable, and a copy, where that waiter does not exist,
//     blocked forever in pthread_cond_signal the first time V8 posted a task there (a mark-compact's
//     job did, --single-threaded or not). Parked, no thread of the server waits on it when it forks;
//     what V8 posts later only queues (a job's work is done by the thread that joins it).
// node.h before node_api.h: it defines NAPI_VERSION as Node's own
#include <node.h>
#include <v8-platform.h>

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

#include <atomic>
#include <memory>

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

std::atomic<int> parked{0};

class Park final : public v8::Task {
 public:
  void Run() override {
    parked++;
    for (;;) pause();
  }
};

napi_value ParkPlatformThreads(napi_env env, napi_callback_info) {
  static int done = -2;
  if (done != -2) return int_value(env, done);
  v8::Isolate* isolate = v8::Isolate::GetCurrent();
  node::Environment* environment = node::GetCurrentEnvironment(isolate->GetCurrentContext());
  node::MultiIsolatePlatform* platform = environment ? node::GetMultiIsolatePlatform(environment) : nullptr;
  if (!platform) return int_value(env, done = -1);
  // Node 20 counts its delayed-task scheduler's thread among them (it waits on its own loop, not on the
  // queue): one task more than there are workers, which stays queued.
  const int threads = platform->NumberOfWorkerThreads();
  for (int i = 0; i < threads; i++) platform->CallOnWorkerThread(std::make_unique<Park>());
  for (int waited = 0; parked.load() < threads - 1; waited++) {
    if (waited >= 10000) return int_value(env, done = -1);
    usleep(1000);
  }
  for (int waited = 0; parked.load() < threads && waited < 50; waited++) usleep(1000);
  return int_value(env, done = parked.load());
}

}  // namespace

NAPI_MODULE_INIT() {
  napi_property_descriptor d[] = {
      {"fork", nullptr, Fork, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"reap", nullptr, Reap, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"exit", nullptr, Exit, nullptr, nullptr, nullptr, napi_default, nullptr},
      {"park", nullptr, ParkPlatformThreads, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, 4, d);
  return exports;
}
