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
/* count elements of e from the generator seeded with seed. */
void run_fill_rand(void *buf, enum run_elem e, uint64_t count, uint64_t seed);
/* 0, 1, 2, ... in e. */
void run_fill_iota(void *buf, enum run_elem e, uint64_t count);
/* A pointer chase: element i holds (i + step) mod count, as an index of e (integers only). */
void run_fill_chain(void *buf, enum run_elem e, uint64_t count, uint64_t step);
/* Every element set to the raw bits v. */
void run_fill_bits(void *buf, enum run_elem e, uint64_t count, uint64_t v);
/* All-ones bytes. */
void run_poison(void *buf, size_t bytes);

#endif
