// divergent.cu: loops whose trip count differs between the lanes of a warp (end-to-end suite).
//   loop_mod7: thread t loops t % 7 times
//   collatz:   data-dependent while loop, the number of Collatz steps from in[i] down to 1

extern "C" __global__ void loop_mod7(int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n)
        return;
    int acc = 0;
    for (int k = 0; k < t % 7; k++)
        acc += k * t + 1;
    out[t] = acc;
}

extern "C" __global__ void collatz(const unsigned *in, unsigned *steps, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = in[i];
    unsigned s = 0;
    while (x > 1) {
        x = (x & 1u) ? 3u * x + 1u : x / 2u;
        s++;
    }
    steps[i] = s;
}
