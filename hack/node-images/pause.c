/*
 * Capstan's pod sandbox process: holds the pod's namespaces, reaps orphans it inherits as PID 1, and
 * exits on SIGINT or SIGTERM. Built statically by hack/node-images/build.sh into the pause image.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void leave(int sig) { (void)sig; _exit(0); }

static void reap(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(void) {
  struct sigaction quit = {.sa_handler = leave};
  struct sigaction child = {.sa_handler = reap, .sa_flags = SA_NOCLDSTOP | SA_RESTART};
  sigaction(SIGINT, &quit, NULL);
  sigaction(SIGTERM, &quit, NULL);
  sigaction(SIGCHLD, &child, NULL);
  for (;;) pause();
  return 1;
}
