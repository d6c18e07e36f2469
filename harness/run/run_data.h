/* run_data.h: the data a kernel is run on: element types, the seeded generator, poison.
 *
 * One definition of the generator serves `warplab emu --arg ...:rand:SEED` and every lab's
 * inputs, so a recorded seed replays the same data anywhere. rand is splitmix64 seeded with
 * SEED, one draw x per element: f32 = (float)((x >> 40) * 2^-24) * 2 - 1 (uniform in [-1, 1)),
 * f64 = (x >> 11) * 2^-53 * 2 - 1, u32/i32 = x >> 32, u64/i64 = x, u8/i8 = x >> 56,
 * u16/i16 = x >> 48, f16 = (x >> 53) * 2^-10 - 1, bf16 = (x >> 56) * 2^-7 - 1 (both exact in
 * their format, uniform in [-1, 1)).
 *
 * Poison fills an output with all-ones bytes before a launch: NaN for floats, -1 for
 * integers, so an element the kernel never wrote cannot pass for a right answer.
 *
 * A run's inputs come from a pool (struct run_inputs): the same rule, type, count and seed
 * give the same bytes, so a buffer is made once and shared by every launch that asks for it
 * (each test of the same size, the main size's test and its measurement, the sweep points
 * whose arguments change but whose buffers do not); the buffers a launch writes into are
 * given back to it and handed out again to the next launch of the same sizes.
 */
#ifndef WARPLAB_RUN_DATA_H
#define WARPLAB_RUN_DATA_H

#include <stddef.h>
#include <stdint.h>

enum run_elem { RUN_U8, RUN_I32, RUN_U32, RUN_I64, RUN_U64, RUN_F32, RUN_F64,
                /* warplab emu's --arg only (lab.json's params take the ones above) */
                RUN_I8, RUN_I16, RUN_U16, RUN_F16, RUN_BF16 };
#define RUN_LAB_LAST RUN_F64

/* The bits of the f16 (half) or bf16 value nearest d (ties to even; overflow to infinity). */
uint16_t run_f16_bits(double d);
uint16_t run_bf16_bits(double d);

/* Bytes per element. */
unsigned run_elem_size(enum run_elem e);
/* "u8" "i32" "u32" "i64" "u64" "f32" "f64" "i8" "i16" "u16" "f16" "bf16" */
const char *run_elem_name(enum run_elem e);
/* The element type called name; 0, or -1 when there is none. */
int run_elem_parse(const char *name, enum run_elem *out);

/* The splitmix64 step. */
uint64_t run_splitmix64(uint64_t *state);
/* count elements of e from the generator seeded with seed (a large count in parts, one a
   core, on threads of its own: the same bytes). */
void run_fill_rand(void *buf, enum run_elem e, uint64_t count, uint64_t seed);
/* on: the calling thread's fills from now on stay on it, in one part (a thread that makes
   inputs while another program, nvcc, has the other cores); 0: in parts again. */
void run_fill_alone(int on);
/* The vector code run_fill_rand uses from now on, in every thread: 2 AVX-512 (with DQ), 1
   AVX2, 0 none (the portable loop alone), at most what the CPU has (the most, at load time).
   Returns the level now in use. For the tests: every level makes the same bytes. */
int run_fill_vectors(int level);
/* 0, 1, 2, ... in e. */
void run_fill_iota(void *buf, enum run_elem e, uint64_t count);
/* A pointer chase: element i holds (i + step) mod count, as an index of e (integers only). */
void run_fill_chain(void *buf, enum run_elem e, uint64_t count, uint64_t step);
/* Every element set to the raw bits v. */
void run_fill_bits(void *buf, enum run_elem e, uint64_t count, uint64_t v);
/* All-ones bytes (RUN_POISON_BYTE): an output before the kernel writes it. */
#define RUN_POISON_BYTE 0xffu
void run_poison(void *buf, size_t bytes);

/* count elements of e made by rule init: "rand" (run_fill_rand with seed), "iota",
   "chain=STEP", "fill=BITS"; anything else zeros. */
void run_fill_init(void *buf, const char *init, enum run_elem e, uint64_t count, uint64_t seed);

struct run_inputs;

/* An empty pool of inputs, or NULL when out of memory. */
struct run_inputs *run_inputs_new(void);

/* The count elements of e made by rule init with seed (run_fill_init), made on the first
   ask and kept in pool: the caller reads them and never writes or frees them. NULL when out
   of memory. A pool that is full (or NULL) still answers: with a buffer made for this ask
   alone, which *owned says the caller must free (0 for a pooled one). */
const void *run_inputs_get(struct run_inputs *pool, const char *init, enum run_elem e,
                           uint64_t count, uint64_t seed, int *owned);

/* A buffer of bytes bytes to write into (its contents undefined): one given back to pool of
   that size, else a new one (malloc). NULL when out of memory. */
void *run_inputs_scratch(struct run_inputs *pool, size_t bytes);

/* Give scratch buffer buf of bytes bytes back to pool for run_inputs_scratch to hand out
   again (freed when the pool is NULL or holds enough; NULL buf: nothing). */
void run_inputs_give_back(struct run_inputs *pool, void *buf, size_t bytes);

/* Free the pool and every buffer it holds (NULL: nothing). */
void run_inputs_free(struct run_inputs *pool);

#endif
