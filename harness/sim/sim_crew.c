/* sim_crew.c: the worker threads of the emulator's launches, kept from one launch to the next.
 *
 * A launch on n workers runs worker 0 on its calling thread and the others on threads of the
 * crew: made by the first launch that needs them, parked on a futex between launches, and
 * handed the workers of every later launch, one launch at a time. Before, every launch made
 * and joined its own threads (7 to 21 in a lab run), and a thread cost more than its making:
 * glibc dropped its stack's pages when it ended, the next launch's thread faulted them and
 * its tables in again, and now and then made a malloc arena for it (a 128 MiB mapping,
 * trimmed at once: a TLB shootdown on the core running the other worker).
 *
 * A thread is woken off the core its launch began on (its affinity set to the launch's cores
 * but that one until it runs, then to all of them). Left to the scheduler, a thread made or
 * woken by the launch started on the launch's core in most launches on the 2-core VM here,
 * and one of the two waited there, runnable, until the scheduler moved it to the idle core:
 * in 44 of 60 launches of saxpy and reduce on 2 workers, one worker's first block started
 * 0.5 to 5 ms after the other's, of a 7-11 ms launch; woken off the core, in 10 of 60, and
 * the launches' median time fell 11-15%. (The device's Intel hosts placed them well: no
 * change there.)
 *
 * A launch that finds the crew held by another (a launch on another thread) makes threads of
 * its own for itself, as every launch did before: no launch waits for another's. A forked
 * child has none of the parent's threads: the child handler of pthread_atfork empties the
 * crew there, and the child's first launch makes its own. The threads end only at
 * sim_threads_end (or with the process: exit() ends them, and what they hold is reachable from
 * their stacks and this file's static table, no leak for LeakSanitizer). A process about to
 * confine itself ends them first: Landlock confines the calling thread and the threads it
 * makes from then on, not the ones already there, which would run the next launches
 * unconfined (and which LeakSanitizer, confined, could not stop to scan: false leaks). They
 * block the signals a process is sent (an interrupt, a child's end): those go to the threads
 * that were there to take them before the crew was kept, not to a parked thread.
 */
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "sim/sim.h"
#include "sim/sim_crew.h"

/* One thread of the crew. go and done are futex words: the launch bumps go to hand it
   fn(arg); the thread sets done to go once fn has returned. */
struct hand {
  _Alignas(64) uint32_t go;
  uint32_t done;
  void *(*fn)(void *);          /* NULL: end (sim_threads_end) */
  void *arg;
  int placed;                   /* handed fn kept off the launch's core: may run on run_on */
  pthread_t th;
};

static struct hand hands[SIM_CREW_MAX];
/* The holder's launch: the cores its thread may run on, and those less the one it began on,
   where the crew's threads are woken (place: off_launch has a core). */
static cpu_set_t run_on, off_launch;
static int place;
static uint32_t nhands;                 /* threads made: hands[0 .. nhands); the holder's */
static int held;                        /* atomic: a launch holds the crew */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* Sleep while *w reads v (or until a wake-up). */
static void futex_wait(uint32_t *w, uint32_t v)
{
  syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}

static void futex_wake(uint32_t *w)
{
  syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

/* *w once it no longer reads v. (A thread that spun a while before it slept, on the chance
   that the next launch or the other workers' end came soon, gained nothing measurable on 2
   cores and took up to 10% more CPU time.) */
static uint32_t wait_change(uint32_t *w, uint32_t v)
{
  uint32_t now;
  while ((now = __atomic_load_n(w, __ATOMIC_ACQUIRE)) == v)
    futex_wait(w, v);
  return now;
}

static void *hand_main(void *arg)
{
  struct hand *h = arg;
  uint32_t seen = 0;
  for (;;) {
    seen = wait_change(&h->go, seen);
    if (!h->fn)
      return NULL;
    if (h->placed)                      /* woken off the launch's core: free to move again */
      sched_setaffinity(0, sizeof run_on, &run_on);
    h->fn(h->arg);
    __atomic_store_n(&h->done, seen, __ATOMIC_RELEASE);
    futex_wake(&h->done);
  }
  return NULL;
}

/* In a forked child: none of the crew's threads are there, nor the launch that held it. */
static void atfork_child(void)
{
  for (uint32_t i = 0; i < nhands; i++)
    hands[i].go = hands[i].done = 0;
  nhands = 0;
  held = 0;
}

static void atfork_register(void)
{
  pthread_atfork(NULL, NULL, atfork_child);
}

/* Make the thread of hands[nhands] (joinable: sim_threads_end joins it), with the process's
   signals blocked but for the ones a fault raises. Returns 0, or -1. */
static int hand_make(void)
{
  static const int faults[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
  sigset_t all, old;
  sigfillset(&all);
  for (size_t k = 0; k < sizeof faults / sizeof *faults; k++)
    sigdelset(&all, faults[k]);
  pthread_attr_t at;
  if (pthread_attr_init(&at))
    return -1;
  pthread_sigmask(SIG_SETMASK, &all, &old);
  struct hand *h = &hands[nhands];
  h->go = h->done = 0;
  int rc = pthread_create(&h->th, &at, hand_main, h);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&at);
  if (rc)
    return -1;
  __atomic_store_n(&nhands, nhands + 1, __ATOMIC_RELAXED);
  return 0;
}

void sim_crew_begin(struct sim_crew_job *j)
{
  pthread_once(&atfork_once, atfork_register);
  j->n = 0;
  j->own = __atomic_exchange_n(&held, 1, __ATOMIC_ACQUIRE) != 0;
  if (j->own)
    return;
  int cpu = sched_getcpu();
  place = 0;
  if (cpu >= 0 && cpu < CPU_SETSIZE && sched_getaffinity(0, sizeof run_on, &run_on) == 0 &&
      CPU_ISSET(cpu, &run_on)) {
    off_launch = run_on;
    CPU_CLR(cpu, &off_launch);
    place = CPU_COUNT(&off_launch) > 0;
  }
}

int sim_crew_give(struct sim_crew_job *j, void *(*fn)(void *), void *arg)
{
  if (j->n >= SIM_CREW_MAX)
    return -1;
  if (j->own) {
    if (pthread_create(&j->th[j->n], NULL, fn, arg))
      return -1;
    j->n++;
    return 0;
  }
  if (j->n == nhands && hand_make())
    return -1;
  struct hand *h = &hands[j->n++];
  h->fn = fn;
  h->arg = arg;
  h->placed = place && pthread_setaffinity_np(h->th, sizeof off_launch, &off_launch) == 0;
  __atomic_store_n(&h->go, h->go + 1, __ATOMIC_RELEASE);
  futex_wake(&h->go);
  return 0;
}

void sim_crew_end(struct sim_crew_job *j)
{
  for (uint32_t i = 0; i < j->n; i++)
    if (j->own) {
      pthread_join(j->th[i], NULL);
    } else {
      struct hand *h = &hands[i];
      uint32_t d;
      while ((d = __atomic_load_n(&h->done, __ATOMIC_ACQUIRE)) != h->go)
        futex_wait(&h->done, d);
    }
  if (!j->own)
    __atomic_store_n(&held, 0, __ATOMIC_RELEASE);
  j->n = 0;
}

void sim_threads_end(void)
{
  if (__atomic_exchange_n(&held, 1, __ATOMIC_ACQUIRE))
    return;                             /* a launch runs on them: not ours to end */
  for (uint32_t i = 0; i < nhands; i++) {
    struct hand *h = &hands[i];
    h->fn = NULL;
    __atomic_store_n(&h->go, h->go + 1, __ATOMIC_RELEASE);
    futex_wake(&h->go);
    pthread_join(h->th, NULL);
    h->go = h->done = 0;
  }
  __atomic_store_n(&nhands, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&held, 0, __ATOMIC_RELEASE);
}

uint32_t sim_crew_size(void)
{
  return __atomic_load_n(&nhands, __ATOMIC_RELAXED);
}
