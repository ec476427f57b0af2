#!/usr/bin/env python3
"""A copy of a step with clock reads at a block's entry and first tile.

    scripts/phases.py variants/NN_slug.cu NN OUT.cu PN

Writes OUT.cu: step NN as variant PN (slug phasesNN), where thread 0 reads
the SM's cycle counter (clock64) at each phase of a block's entry and, as a
consumer, of its first tile, into a device array, and the variant's teardown
prints, per phase, the median, minimum, 90th percentile and maximum over the
grid's blocks of the cycles since thread 0's first read, with the global
timer at entry (when the blocks begin). The stamps of the last launch are
the ones printed. The phases are found by the lines they follow, those of
51 (the first K, V and Q sent for at entry, by thread 0): a step without one
of them is refused with the line it lacks. Not a step: scripts/phases.sh
builds it beside the registry, in a scratch tree.
"""
import re
import sys

# (name, where: 'after' or 'before' the line, the line, who reads the clock
# there: thread 0 inside its entry block, thread 0 among all, or thread 0 in
# its first tile)
ENTRY_BLOCK, ALL, FIRST_TILE = '', 'threadIdx.x == 0 && ', 'j == 0 && threadIdx.x == 0 && '
PHASES = [
    ('maps prefetched', 'after', 'fs_tma_prefetch_map(&maps.o);', ENTRY_BLOCK),
    ('barriers ready', 'after', 'fs_fence_mbar_init(); /* for the copy engine, which signals the loads */', ENTRY_BLOCK),
    ('tile decoded', 'after', 'const tile x = decode<BN, D>(p, o, blockIdx.x);', ENTRY_BLOCK),
    ('kv head', 'after', 'const int kvh = kv_head(p, o, x.bh);', ENTRY_BLOCK),
    ('K,V sent', 'after', 'fs_tma_load_tile<BN, D>(sKV + BN * D, &maps.v, &v_loaded[0], 0, kvh);', ENTRY_BLOCK),
    ('Q sent', 'after', 'load_q<BM, D>(sQ, &maps.q, q_loaded, x.q0, x.bh);', ENTRY_BLOCK),
    ('syncthreads', 'before', '__syncthreads();\n    const int ntiles', ALL),
    ('wg0 K landed', 'after', 'fs_mbar_wait(&k_loaded[it % STAGES], it / STAGES % 2);\n        if (j > 0) {', FIRST_TILE),
    ('wg0 Q landed', 'after', 'fs_mbar_wait(&q_loaded[wg], j % 2);', FIRST_TILE),
    ('first step done', 'before', '        for (int kb = 1; kb < x.full; kb++)', FIRST_TILE),
]
ENTRY = 'if (threadIdx.x == 0) {'
STAMPS = len(PHASES) + 2  # entry, the phases, the global timer


def stamp(i, who):
    return f'if ({who}blockIdx.x < FS_PHASE_BLOCKS) fs_phase[blockIdx.x][{i}] = clock64();'


def main():
    if len(sys.argv) != 5:
        sys.exit('usage: phases.py variants/NN_slug.cu NN OUT.cu PN')
    src, nn, out, pn = sys.argv[1:]
    text = open(src).read()
    k = text.find('__global__')
    if k < 0:
        sys.exit(f'phases: {src} has no kernel')
    head, body = text[:k], text[k:]

    def place(body, where, line, code):
        i = body.find(line)
        if i < 0:
            sys.exit(f'phases: {src} has no line {line!r}: the clock reads fit 51 and steps with its entry')
        if where == 'before':  # on a line of its own, indented as the line
            start = body.rfind('\n', 0, i) + 1
            indent = body[start:len(body) - len(body[start:].lstrip(' '))]
            return body[:start] + indent + code + '\n' + body[start:]
        if '\n' in line:  # after the line's first part: the wait, not inside the block that follows it
            cut = line.rfind('\n')
            return body[:i + cut] + '\n        ' + code + body[i + cut:]
        return body[:i + len(line)] + '\n        ' + code + body[i + len(line):]

    timer = ('{ unsigned long long g; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g)); '
             f'if (blockIdx.x < FS_PHASE_BLOCKS) fs_phase[blockIdx.x][{STAMPS - 1}] = (long long)g; }} '
             'fs_phase_grid = gridDim.x; ')
    body = place(body, 'after', ENTRY, timer + stamp(0, ENTRY_BLOCK))
    for i, (name, where, line, who) in enumerate(PHASES, 1):
        body = place(body, where, line, stamp(i, who))
    head = head.replace('#include "hopper.cuh"', '#include "hopper.cuh"\n#include <stdio.h>\n'
                        f'#define FS_PHASE_BLOCKS 1024\n__device__ long long fs_phase[FS_PHASE_BLOCKS][{STAMPS}];\n'
                        '__device__ int fs_phase_grid;', 1)
    text = head + body
    text = text.replace(f'fs{nn}_attention', f'fs{pn}_attention').replace(f'fs_variant_{nn}', f'fs_variant_{pn}')
    text = re.sub(r'\.number = \d+,', f'.number = {pn},', text)
    text = re.sub(r'\.slug = "[^"]*",', f'.slug = "phases{nn}",', text)
    if '.teardown = fs_tma_teardown,' not in text:
        sys.exit(f'phases: {src} has no fs_tma_teardown to print from')
    text = text.replace('.teardown = fs_tma_teardown,', '.teardown = print_phases,')
    names = ', '.join(f'"{phase[0]}"' for phase in PHASES)
    printer = f'''
/* The last launch's stamps: per phase, over the grid's blocks, the cycles
 * since thread 0's first read; the global timer since the first block's. */
static int by_value(const void *a, const void *b)
{{
    const long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}}
static void print_phases(fs_problem *p)
{{
    static long long h[FS_PHASE_BLOCKS][{STAMPS}], v[FS_PHASE_BLOCKS];
    static const char *name[{STAMPS}] = {{"entry", {names}, "globaltimer ns"}};
    int n = 0; /* the launch's blocks, as many as it stamped */
    cudaError_t e = cudaMemcpyFromSymbol(&n, fs_phase_grid, sizeof n);
    if (e == cudaSuccess)
        e = cudaMemcpyFromSymbol(h, fs_phase, sizeof h);
    if (e != cudaSuccess)
        fprintf(stderr, "phases{nn}: reading the clock reads back (cudaMemcpyFromSymbol) failed: %s\\n",
                cudaGetErrorString(e));
    else if (n > 0) {{
        n = n < FS_PHASE_BLOCKS ? n : FS_PHASE_BLOCKS;
        printf("PROBE phases{nn} N=%d Hq=%d D=%d causal=%d blocks=%d\\n", p->seq, p->heads_q, p->head_dim, p->causal, n);
        long long g0 = h[0][{STAMPS - 1}];
        for (int b = 1; b < n; b++)
            g0 = h[b][{STAMPS - 1}] < g0 ? h[b][{STAMPS - 1}] : g0;
        for (int i = 1; i < {STAMPS}; i++) {{
            for (int b = 0; b < n; b++)
                v[b] = i == {STAMPS - 1} ? h[b][i] - g0 : h[b][i] - h[b][0];
            qsort(v, n, sizeof v[0], by_value);
            printf("PROBE   %-16s median %7lld  min %7lld  p90 %7lld  max %7lld\\n", name[i], v[n / 2], v[0],
                   v[n * 9 / 10], v[n - 1]);
        }}
        fflush(stdout);
    }}
    fs_tma_teardown(p);
}}

'''
    i = text.find('extern "C" const fs_variant')
    text = text[:i] + printer + text[i:]
    open(out, 'w').write(text)


main()
