/* One error check for the CUDA runtime: names the call, file and line, then
 * returns `fail` from the calling function. Kernel code never uses it. */
#ifndef FS_CHECK_H
#define FS_CHECK_H

#include <stdio.h>
#include <cuda_runtime_api.h>

#define CUDA_CHECK(call, fail)                                                 \
    do {                                                                       \
        cudaError_t fs_err_ = (call);                                          \
        if (fs_err_ != cudaSuccess) {                                          \
            fprintf(stderr, "flashstudy: %s failed at %s:%d: %s\n", #call,     \
                    __FILE__, __LINE__, cudaGetErrorString(fs_err_));          \
            return fail;                                                       \
        }                                                                      \
    } while (0)

#endif
