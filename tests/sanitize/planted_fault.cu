/* A planted fault for `make sanitize`: one thread writes one element past the
 * end of its buffer. compute-sanitizer's memcheck must report it; if it does
 * not, the sanitizer step proves nothing about the variants. */
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fsfault_write_past_end(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) /* the bug: <= */
        x[i] = 1.f;
}

int main(void)
{
    const int n = 256;
    float *x;
    if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess)
        return 2;
    fsfault_write_past_end<<<2, 256>>>(x, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("planted fault ran: %s\n", cudaGetErrorString(e));
    cudaFree(x);
    return 0;
}
