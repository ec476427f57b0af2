/* The cuDNN peer's one entry point besides its fs_variant: which cuDNN this
 * process would use, for the run's record. */
#ifndef FS_PEER_CUDNN_H
#define FS_PEER_CUDNN_H

#include <stddef.h>

/* Loads libcudnn.so.9 from the library path, or the file named by the
 * environment variable FLASHSTUDY_CUDNN, and reads its version; no GPU call.
 * Returns 0 with "cuDNN 9.14.0 (/path/to/libcudnn.so.9)" in note, or 1 with
 * why it cannot be used (not found, not cuDNN, not cuDNN 9) and what is
 * needed. */
int fs_cudnn_probe(char *note, size_t len);

#endif
