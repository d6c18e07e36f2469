/* vhalf_exhaustive.c: sim_vhalf.c's f16 arithmetic, min and max (through sim_vfp_full)
 * against sim_alu's, lane by lane, over every first operand and every STRIDE-th second one
 * (and, for fma, a third drawn from the pair): the count of operations and of results that
 * differ, with the first few. A verification tool that prints figures (tests/tools/vhalf_exhaustive.sh runs
 * it), not a test.
 *
 *   vhalf_exhaustive add|sub|mul|fma|min|max STRIDE [first last]   (first operands: 0..65535)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "sim/sim_alu.h"
#include "sim/sim_int.h"

int main(int argc, char **argv)
{
#ifndef SIM_X86
  (void)argc; (void)argv;
  fprintf(stderr, "vhalf_exhaustive: an x86-64 build with the vector code is needed\n");
  return 2;
#else
  if (argc < 3) {
    fprintf(stderr, "usage: vhalf_exhaustive add|sub|mul|fma|min|max STRIDE [first last]\n");
    return 2;
  }
  const char *name = argv[1];
  const enum ptx_op op = !strcmp(name, "add") ? PTX_OP_ADD : !strcmp(name, "sub") ? PTX_OP_SUB
                         : !strcmp(name, "mul") ? PTX_OP_MUL : !strcmp(name, "min") ? PTX_OP_MIN
                         : !strcmp(name, "max") ? PTX_OP_MAX : PTX_OP_FMA;
  const int bits = op == PTX_OP_MIN || op == PTX_OP_MAX;
  const uint32_t stride = (uint32_t)strtoul(argv[2], NULL, 0);
  const uint32_t first = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 0;
  const uint32_t last = argc > 4 ? (uint32_t)strtoul(argv[4], NULL, 0) : 0xffff;
  struct ptx_inst in;
  memset(&in, 0, sizeof in);
  in.op = (uint16_t)op;
  in.type = PTX_T_F16X2;
  in.rnd = bits ? PTX_RND_NONE : PTX_RND_RN;
  in.nopd = op == PTX_OP_FMA ? 4 : 3;
  const enum sim_vfp k = sim_vfp_of(&in);
  if (k == SIM_VFP_NONE) {
    fprintf(stderr, "vhalf_exhaustive: no vector code here (AVX2 and F16C)\n");
    return 2;
  }
  uint64_t n = 0, diff = 0;
  for (uint32_t a = first; a <= last; a++)
    for (uint32_t b0 = 0; b0 < 65536; b0 += 32 * 2 * stride) {
      uint64_t x[32], y[32], z[32], d[32];
      for (unsigned l = 0; l < 32; l++) {          /* two second operands a lane */
        const uint32_t b1 = (b0 + 2 * l * stride) & 0xffff, b2 = (b1 + stride) & 0xffff;
        x[l] = a | a << 16;
        y[l] = b1 | b2 << 16;
        z[l] = ((a ^ b1 ^ 0x5a5a) * 2654435761u >> 16 & 0xffff) | (uint64_t)(b2 ^ a) << 16;
      }
      sim_vfp_full(k, &in, d, x, y, op == PTX_OP_FMA ? z : NULL);
      for (unsigned l = 0; l < 32; l++) {
        const uint64_t want =
            op == PTX_OP_FMA ? sim_alu_ffma(PTX_T_F16X2, PTX_RND_RN, 0, x[l], y[l], z[l])
                             : sim_alu_fbin(op, PTX_T_F16X2, (enum ptx_rnd)in.rnd, 0, x[l], y[l]);
        n += 2;
        if (d[l] != want && diff++ < 8)
          printf("%s 0x%08llx 0x%08llx 0x%08llx: 0x%08llx, sim_alu 0x%08llx\n", name,
                 (unsigned long long)x[l], (unsigned long long)y[l], (unsigned long long)z[l],
                 (unsigned long long)d[l], (unsigned long long)want);
      }
    }
  printf("%s, first operands 0x%04x..0x%04x, every %u-th second: %llu operations, %llu lanes differ\n",
         name, first, last, stride, (unsigned long long)n, (unsigned long long)diff);
  return diff != 0;
#endif
}
