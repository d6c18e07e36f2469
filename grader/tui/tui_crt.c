/* tui_crt.c: the terminal of the feedback screen: curses set-up and colours, and the terminal
 * given back as it was on every way out:
 *   - a quit or an error: tui_run calls tui_crt_close before it returns;
 *   - exit() from anywhere: an atexit handler;
 *   - SIGINT, SIGTERM, SIGHUP: a flag that the input loop reads within 100 ms, so the screen
 *     ends through the same path as a quit; a second signal before that restores at once;
 *   - a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT): restore, then the signal's default
 *     action (left to the sanitizer in an ASan build, whose report matters more).
 * The only file that starts or ends curses (htop's CRT.c is the model). */
#include <curses.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grader/tui/tui_int.h"

#if defined(__SANITIZE_ADDRESS__)
#define TUI_CRASH_HANDLERS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TUI_CRASH_HANDLERS 0
#endif
#endif
#ifndef TUI_CRASH_HANDLERS
#define TUI_CRASH_HANDLERS 1
#endif

enum { PAIR_GOOD = 1, PAIR_BAD, PAIR_WARN, PAIR_BAR, PAIR_KEY, PAIR_SERIES };

#define NSERIES_COLOURS 6

static SCREEN *screen;
static int colour;
static void (*exit_hook)(void);
static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t curses_on;
static int handlers_set;

static void restore(void)
{
  if (curses_on) {
    curses_on = 0;
    endwin();
  }
}

static void at_exit(void)
{
  if (exit_hook)
    exit_hook();
  restore();
}

static void on_stop(int sig)
{
  if (stop_signal) {   /* the loop has not got to the first one: restore now and go */
    if (exit_hook)
      exit_hook();
    restore();
    _exit(128 + sig);
  }
  stop_signal = sig;
}

#if TUI_CRASH_HANDLERS
static void on_crash(int sig)
{
  if (exit_hook)
    exit_hook();
  restore();
  signal(sig, SIG_DFL);
  raise(sig);
}
#endif

/* The handlers, before curses starts: curses leaves a handler it finds in place. */
static void set_handlers(void)
{
  if (handlers_set)
    return;
  handlers_set = 1;
  atexit(at_exit);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_handler = on_stop;   /* no SA_RESTART: the wait for a key ends at once */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
#if TUI_CRASH_HANDLERS
  sa.sa_handler = on_crash;
  sa.sa_flags = SA_RESETHAND;
  static const int crash[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
  for (size_t i = 0; i < sizeof crash / sizeof *crash; i++)
    sigaction(crash[i], &sa, NULL);
#endif
}

int tui_crt_open(void (*on_exit)(void), char *err, size_t errlen)
{
  const char *term = getenv("TERM");
  if (!term || !*term || !strcmp(term, "dumb")) {
    snprintf(err, errlen, "the terminal type (TERM=%s) cannot hold the feedback screen",
             term ? term : "");
    return -1;
  }
  exit_hook = on_exit;
  set_handlers();
  screen = newterm(NULL, stdout, stdin);
  if (!screen) {
    snprintf(err, errlen, "the terminal type TERM=%s is unknown to curses (no terminfo entry)", term);
    return -1;
  }
  set_term(screen);
  curses_on = 1;
  cbreak();                  /* keys at once; Ctrl-C still a signal */
  noecho();
  nonl();
  keypad(stdscr, TRUE);
  curs_set(0);
  timeout(100);              /* getch waits 0.1 s at most: the loop polls runs and the file */
  const char *no_colour = getenv("NO_COLOR");
  colour = has_colors() && !(no_colour && *no_colour);
  if (colour && start_color() == OK) {
    use_default_colors();
    init_pair(PAIR_GOOD, COLOR_GREEN, -1);
    init_pair(PAIR_BAD, COLOR_RED, -1);
    init_pair(PAIR_WARN, COLOR_YELLOW, -1);
    init_pair(PAIR_BAR, COLOR_BLACK, COLOR_CYAN);
    init_pair(PAIR_KEY, COLOR_CYAN, -1);
    static const short series[NSERIES_COLOURS] = {COLOR_BLUE, COLOR_YELLOW, COLOR_GREEN,
                                                  COLOR_MAGENTA, COLOR_CYAN, COLOR_RED};
    for (int s = 0; s < NSERIES_COLOURS; s++)
      init_pair((short)(PAIR_SERIES + s), series[s], -1);
  } else {
    colour = 0;
  }
  return 0;
}

void tui_crt_close(void)
{
  restore();
  if (screen) {
    delscreen(screen);
    screen = NULL;
  }
  exit_hook = NULL;
}

int tui_crt_attr(int role)
{
  if (role >= TUI_SERIES)
    return colour ? (int)COLOR_PAIR(PAIR_SERIES + (role - TUI_SERIES) % NSERIES_COLOURS) : A_NORMAL;
  switch (role) {
  case TUI_GOOD: return colour ? (int)(COLOR_PAIR(PAIR_GOOD) | A_BOLD) : A_BOLD;
  case TUI_BAD: return colour ? (int)(COLOR_PAIR(PAIR_BAD) | A_BOLD) : A_BOLD;
  case TUI_WARN: return colour ? (int)COLOR_PAIR(PAIR_WARN) : A_NORMAL;
  case TUI_DIM: return A_DIM;
  case TUI_TITLE: return A_BOLD;
  case TUI_FOCUS: return A_REVERSE | A_BOLD;
  case TUI_BAR: return colour ? (int)(COLOR_PAIR(PAIR_BAR) | A_BOLD) : A_REVERSE;
  case TUI_KEY: return colour ? (int)(COLOR_PAIR(PAIR_KEY) | A_BOLD) : A_BOLD;
  default: return A_NORMAL;
  }
}

int tui_crt_stop_signal(void)
{
  return stop_signal;
}
