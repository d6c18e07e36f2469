// chain.cu: lab 06, the order in which a warp runs its divergent paths (ungraded; the
// handout's exercise 5). A chain of 32 if/else-ifs, one per thread of a warp:
//
//   if (me == c[0]) path 0  else if (me == c[1]) path 1  ...  else if (me == c[31]) path 31
//
// c is a permutation of 0..31 read from memory, so the compiler cannot know which thread
// takes which path, and me is threadIdx.x (reverse = 0) or 31 - threadIdx.x (reverse = 1,
// as if c ran from 31 down to 0). Every path takes a ticket from a counter: order[tid] is
// the number of paths the warp ran before thread tid's. Each path ends in an empty asm
// statement that names it in the PTX; it does nothing, but it keeps the compiler from
// merging the 32 identical bodies into one, which would leave no branch to diverge at.
//
//   bin/warplab emu labs/06-divergence/chain.cu --kernel chain --grid 1 --block 32 \
//       --arg i32buf:32:iota --arg i32buf:32:zero --arg i32buf:1:zero --arg i32:0 \
//       --dump 1=order.bin --sched stack
//
// The GT200 paper's listing 3 is the same experiment; it timed the paths with clock().

extern "C" __global__ void chain(const int *c, int *order, int *ticket, int reverse)
{
    int tid = threadIdx.x;
    int me = reverse ? 31 - tid : tid;
    if (me == c[0]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 0");
    } else if (me == c[1]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 1");
    } else if (me == c[2]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 2");
    } else if (me == c[3]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 3");
    } else if (me == c[4]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 4");
    } else if (me == c[5]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 5");
    } else if (me == c[6]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 6");
    } else if (me == c[7]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 7");
    } else if (me == c[8]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 8");
    } else if (me == c[9]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 9");
    } else if (me == c[10]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 10");
    } else if (me == c[11]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 11");
    } else if (me == c[12]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 12");
    } else if (me == c[13]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 13");
    } else if (me == c[14]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 14");
    } else if (me == c[15]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 15");
    } else if (me == c[16]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 16");
    } else if (me == c[17]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 17");
    } else if (me == c[18]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 18");
    } else if (me == c[19]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 19");
    } else if (me == c[20]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 20");
    } else if (me == c[21]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 21");
    } else if (me == c[22]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 22");
    } else if (me == c[23]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 23");
    } else if (me == c[24]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 24");
    } else if (me == c[25]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 25");
    } else if (me == c[26]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 26");
    } else if (me == c[27]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 27");
    } else if (me == c[28]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 28");
    } else if (me == c[29]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 29");
    } else if (me == c[30]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 30");
    } else if (me == c[31]) {
        order[tid] = atomicAdd(ticket, 1);
        asm volatile("// path 31");
    }
}
