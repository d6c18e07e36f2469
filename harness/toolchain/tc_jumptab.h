/* tc_jumptab.h: the jump tables of a cubin's indirect branches, named in nvdisasm's listing
 * without nvdisasm's dataflow analysis.
 *
 * ptxas turns a dense switch into an indirect branch (BRX) through a jump table it keeps in
 * constant bank 2, a section .nv.constant2.FUNCTION of the cubin: one 32-bit word an entry,
 * the target's offset in the function. `nvdisasm -ndf` (no dataflow analysis, 0.1 s of CPU
 * less whatever the kernel) lists the targets' labels but not which branch reaches them; the
 * analysis would add `(*"BRANCH_TARGETS .L_x_8,.L_x_9"*)` to the BRX, the only place the SASS
 * map (ptx/ptx_sass.h) learns that those labels are entered. This adds the same comment from
 * the section itself, where the BRX is made as ptxas makes it:
 *
 *     VIMNMX.U32 R0, R0, 0x3, PT          (or VIADDMNMX.U32 R0, R4, R3, 0x2, PT): N = 3
 *     IMAD.SHL.U32 R0, R0, 0x4, RZ        (or SHF.L.U32 R0, R0, 0x2, RZ)
 *     LDC R2, c[0x2][R0+0xc]              the table starts at byte 0xc of the bank
 *     BRX R2 -0xb0                        its N + 1 entries are the targets
 *
 * each of those the last writer of its register before the next, with no label between that
 * another branch names; every entry must be a label of the function. A BRX made otherwise is
 * not named, and the caller lists the cubin with the analysis instead.
 */
#ifndef WARPLAB_TC_JUMPTAB_H
#define WARPLAB_TC_JUMPTAB_H

#include <stddef.h>
#include <stdint.h>

/* One function's constant bank 2, as the cubin holds it. */
struct tc_bank2 {
  char func[256];             /* the function's name (the section's, after .nv.constant2.) */
  const uint8_t *bytes;       /* its little-endian 32-bit words (in the caller's copy of the
                                 cubin) */
  uint32_t nwords;
};

/* The constant bank 2 sections of the ELF64 cubin elf[0 .. len), into banks[0 .. max).
   Returns how many there are (at most max are filled), or -1 when elf is not a
   little-endian ELF64 file whose section headers are whole. */
int tc_jumptab_banks(const uint8_t *elf, size_t len, struct tc_bank2 *banks, unsigned max);

/* Whether the cubin at path may hold a jump table: it has a constant bank 2 section, or it
   cannot be read as ELF64 (then 1 too). */
int tc_jumptab_possible(const char *path);

/* The listing of `nvdisasm -c -gp -ndf` (text, NUL-terminated) with every BRX given its
   BRANCH_TARGETS from banks[0 .. nbanks) (malloc'd, NUL-terminated; the same text where
   it has no BRX). NULL when some BRX is not made as above, an entry is no label of its
   function, or memory ran out: then only the analysis names its targets. */
char *tc_jumptab_name(const char *text, const struct tc_bank2 *banks, unsigned nbanks);

#endif
