// What a host waits for after hookx's answer, and what is left to run after hookx has exited
// (BENCHMARKS.md, "The twenty-second pass"). Each binary runs `exec --host claude` RUNS times,
// the binaries interleaved, with the payload file on stdin; per run it times: the first byte
// of the answer to both pipes' EOF (hookx's exit path), the start to EOF and to the reap (what
// a host waits for), and the start to the moment every process the run left is gone (the
// guardian included: this program is their subreaper, and waits for them, untimed, before the
// next run, so that no run's leftovers land in the next one's time). Medians.
//
//   cc -O2 -o /tmp/x/bench-exit-path scripts/bench-exit-path.c
//   cd /tmp/x && HOME=/tmp/x DENY='echo "{...a Claude PreToolUse deny...}"' ./bench-exit-path 300 payload.json A B
//
// With DENY set, the handler is that command under `--as claude --match Bash` (hookx answers);
// without, `true` under `--as bricks --match bash` (hookx prints nothing).
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
extern char **environ;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, n, sizeof *v, cmp);
  return v[n / 2];
}

enum { WARMUP = 20 };

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s RUNS PAYLOAD BIN...\n", argv[0]);
    return 2;
  }
  int runs = atoi(argv[1]), nb = argc - 3;
  char buf[65536];
  int fd = open(argv[2], O_RDONLY);
  int len = fd < 0 ? -1 : read(fd, buf, sizeof buf);
  if (len < 0) {
    perror(argv[2]);
    return 2;
  }
  close(fd);
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  char *deny = getenv("DENY");
  double *tail = calloc(nb * runs, sizeof(double)), *eof = calloc(nb * runs, sizeof(double));
  double *reap = calloc(nb * runs, sizeof(double)), *gone = calloc(nb * runs, sizeof(double));
  for (int r = 0; r < runs + WARMUP; r++)
    for (int b = 0; b < nb; b++) {
      int in[2], out[2], err[2];
      pipe2(in, O_CLOEXEC), pipe2(out, O_CLOEXEC), pipe2(err, O_CLOEXEC);
      posix_spawn_file_actions_t fa;
      posix_spawn_file_actions_init(&fa);
      posix_spawn_file_actions_adddup2(&fa, in[0], 0);
      posix_spawn_file_actions_adddup2(&fa, out[1], 1);
      posix_spawn_file_actions_adddup2(&fa, err[1], 2);
      char *av[] = {argv[3 + b], "exec", "--host", "claude", "--as", deny ? "claude" : "bricks",
                    "--event", "PreToolUse", "--match", deny ? "Bash" : "bash", "--",
                    deny ? deny : "true", 0};
      double t0 = now(), first = 0;
      pid_t pid;
      if (posix_spawn(&pid, argv[3 + b], &fa, 0, av, environ)) {
        perror(argv[3 + b]);
        return 1;
      }
      posix_spawn_file_actions_destroy(&fa);
      close(in[0]), close(out[1]), close(err[1]);
      if (write(in[1], buf, len) != len) return 1;
      close(in[1]);
      struct pollfd p[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
      for (int open_ = 2; open_;) {
        poll(p, 2, -1);
        for (int i = 0; i < 2; i++)
          if (p[i].fd >= 0 && p[i].revents) {
            char junk[4096];
            int n = read(p[i].fd, junk, sizeof junk);
            if (n > 0 && !first) first = now();
            if (n <= 0) close(p[i].fd), p[i].fd = -1, open_--;
          }
      }
      double t1 = now();
      int st;
      waitpid(pid, &st, 0);
      double t2 = now();
      while (waitpid(-1, 0, 0) > 0) {
      }
      double t3 = now();
      if (!WIFEXITED(st) || WEXITSTATUS(st)) {
        fprintf(stderr, "%s failed\n", argv[3 + b]);
        return 1;
      }
      if (r >= WARMUP) {
        int k = b * runs + r - WARMUP;
        tail[k] = first ? t1 - first : 0, eof[k] = t1 - t0, reap[k] = t2 - t0, gone[k] = t3 - t0;
      }
    }
  for (int b = 0; b < nb; b++) {
    int k = b * runs;
    printf("%s: answer to EOF %.3f ms, EOF %.3f ms, reaped %.3f ms, all gone %.3f ms\n",
           argv[3 + b], median(tail + k, runs), median(eof + k, runs), median(reap + k, runs),
           median(gone + k, runs));
  }
  return 0;
}
