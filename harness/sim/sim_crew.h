/* sim_crew.h: the worker threads of the emulator's launches, kept from one launch to the next
 * (sim_crew.c). Internal to harness/sim.
 */
#ifndef WARPLAB_SIM_CREW_H
#define WARPLAB_SIM_CREW_H

#include <pthread.h>
#include <stdint.h>

/* Threads one launch may be given besides its calling thread (sim_run's 256 workers). */
#define SIM_CREW_MAX 255u

/* The threads of one launch: the crew's, or, when another launch holds the crew, threads
   made for this launch alone. On the caller's stack, from sim_crew_begin to sim_crew_end. */
struct sim_crew_job {
  int own;                          /* the crew was busy: threads of its own (th) */
  uint32_t n;                       /* threads given a worker so far */
  pthread_t th[SIM_CREW_MAX];
};

/* Start a launch's use of threads: the crew's when no other launch holds it, else threads of
   its own. Never waits. */
void sim_crew_begin(struct sim_crew_job *j);

/* Run fn(arg) on the launch's next thread (the first of the crew's that has none, made now
   when the crew has too few). Returns 0, or -1 when no thread could be made: fn does not
   run, and no more are given. */
int sim_crew_give(struct sim_crew_job *j, void *(*fn)(void *), void *arg);

/* Wait until every fn given has returned (its writes are then seen here) and give the crew
   back. */
void sim_crew_end(struct sim_crew_job *j);

/* Threads the crew holds in this process (a forked child starts with none). For the unit
   tests. */
uint32_t sim_crew_size(void);

#endif
