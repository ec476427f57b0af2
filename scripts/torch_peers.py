#!/usr/bin/env python3
"""Cross-check, not part of the study: PyTorch's scaled_dot_product_attention
backends (cuDNN, FlashAttention-2) timed on this GPU at the shapes the study
compares with, so that reports/peers.csv carries figures measured beside our
own. Needs PyTorch with CUDA; flashstudy itself never does.

    python3 scripts/torch_peers.py > peers-measured.csv
    ncu ... python3 scripts/torch_peers.py --once flash2

Prints one CSV row per backend and shape: the median of
triton.testing.do_bench (ms, like flashstudy's median of CUDA events), K and V
expanded to the query heads as PyTorch's backends need, and the cuDNN
version PyTorch carries. --once BACKEND runs that backend once at each shape
and prints nothing, for a profiler to count one launch a shape.
"""
import csv
import sys

import torch
import torch.nn.functional as F
import triton.testing as tt
from torch.nn.attention import SDPBackend, sdpa_kernel

SHAPES = [  # batch, heads, seq, head_dim, causal
    (2, 16, 1024, 128, True), (2, 16, 4096, 128, True), (2, 16, 16384, 128, True),
    (2, 16, 1024, 128, False), (2, 16, 4096, 128, False), (2, 16, 16384, 128, False),
    (2, 16, 16384, 64, True),
]
BACKENDS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash2": SDPBackend.FLASH_ATTENTION}


def once(name):
    if name not in BACKENDS:
        sys.exit("torch_peers.py: --once takes %s, not %r" % (" or ".join(BACKENDS), name))
    for b, h, n, d, causal in SHAPES:
        q = torch.randn(b, h, n, d, device="cuda", dtype=torch.half)
        with sdpa_kernel(BACKENDS[name]):
            F.scaled_dot_product_attention(q, torch.randn_like(q), torch.randn_like(q), is_causal=causal)
    torch.cuda.synchronize()


def main():
    if len(sys.argv) > 1:
        if len(sys.argv) != 3 or sys.argv[1] != "--once":
            sys.exit("usage: torch_peers.py [--once BACKEND]")
        return once(sys.argv[2])
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["backend", "cudnn", "batch", "heads", "seq", "head_dim", "causal", "time_median_s", "flop_per_s",
                "device", "torch"])
    dev = torch.cuda.get_device_name()
    for b, h, n, d, causal in SHAPES:
        q = torch.randn(b, h, n, d, device="cuda", dtype=torch.half)
        k, v = torch.randn_like(q), torch.randn_like(q)
        flop = 4 * b * h * n * n * d / (2 if causal else 1)
        for name, backend in BACKENDS.items():
            with sdpa_kernel(backend):
                ms = tt.do_bench(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal),
                                 return_mode="median")
            w.writerow([name, torch.backends.cudnn.version(), b, h, n, d, int(causal), "%.6g" % (ms * 1e-3),
                        "%.6g" % (flop / (ms * 1e-3)), dev, torch.__version__])
        sys.stdout.flush()


if __name__ == "__main__":
    main()
