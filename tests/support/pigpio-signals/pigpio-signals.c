/*
 * Test stand-in for what the pigpio C library does to a Node.js process when it initialises
 * (pigpio.c, sigSetHandler): a handler of its own for every signal. SIGCHLD, SIGPIPE, SIGWINCH and
 * SIGUSR1/2 are swallowed; any other signal makes the library terminate and exit(-1) (status 255).
 * After this, Node never sees SIGCHLD (children are never reaped) and a SIGTERM exits at once unless
 * the gateway re-registers its own handlers.
 *
 * Built as a Node-API addon with no header: process.dlopen() calls napi_register_module_v1, which
 * returns the exports object it was given.
 */
#include <signal.h>
#include <string.h>
#include <unistd.h>

static void pigpio_like_handler(int signum) {
  switch (signum) {
    case SIGCHLD:
    case SIGPIPE:
    case SIGWINCH:
    case SIGUSR1:
    case SIGUSR2:
      return;
    default:
      _exit(255);
  }
}

void *napi_register_module_v1(void *env, void *exports) {
  (void)env;
  for (int signum = 1; signum < 64; signum++) {
    if (signum == SIGKILL || signum == SIGSTOP) continue;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = pigpio_like_handler;
    sigaction(signum, &action, NULL); /* glibc refuses its own (32, 33): fine, so does pigpio's loop */
  }
  return exports;
}
