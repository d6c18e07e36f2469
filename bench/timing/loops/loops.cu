// loops.cu: the families benchmark's data-dependent loops (issue 15): every element runs a
// loop whose trip count comes from the input, 0 to 63 trips of a dependent integer hash
// step. The trip count is
//
//   t(i) = (r[i] & rmask) + ((i * 64 / n) & smask)
//
//   random  rmask = 63, smask = 0   trips spread at random over a warp's lanes: the warp
//                                   runs its longest lane's trips (about 62 of 64)
//   sorted  rmask = 0,  smask = 63  the same spread of trips (0 to 63, mean 31.5) sorted
//                                   by i: a warp's lanes agree, the warp runs the mean
//   short   rmask = 7,  smask = 0   random, 0 to 7 trips (the work of sorted / 8 or so)
//
// Every point runs the same instructions per trip; only the divergence changes. One
// element a thread.

extern "C" __global__ void loops(const unsigned *r, unsigned *out, int n, unsigned rmask,
                                 unsigned smask)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = r[i];
    unsigned t = (v & rmask) + ((unsigned)((long long)i * 64 / n) & smask);
    unsigned h = v;
    for (unsigned k = 0; k < t; k++)
        h = (h ^ (h >> 15)) * 0x2c1b3c6du + k;
    out[i] = h;
}
