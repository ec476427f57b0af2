#!/bin/sh
# Renders the charts of run 20261201-1300-h200-seq: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='34.88 60.864 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='34.88 60.864 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='waterfall.png.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" waterfall.gp
mv waterfall.png.tmp waterfall.png
gnuplot -e "fmt='svg'; out='waterfall.svg.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" waterfall.gp
mv waterfall.svg.tmp waterfall.svg
gnuplot -e "fmt='png'; out='bytes.png.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 02 03 05 06 09 10 11 12 13 14 15'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" bytes.gp
mv bytes.png.tmp bytes.png
gnuplot -e "fmt='svg'; out='bytes.svg.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 02 03 05 06 09 10 11 12 13 14 15'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" bytes.gp
mv bytes.svg.tmp bytes.svg
gnuplot -e "fmt='png'; out='l2hit.png.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" l2hit.gp
mv l2hit.png.tmp l2hit.png
gnuplot -e "fmt='svg'; out='l2hit.svg.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" l2hit.gp
mv l2hit.svg.tmp l2hit.svg
gnuplot -e "fmt='png'; out='inst.png.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" inst.gp
mv inst.png.tmp inst.png
gnuplot -e "fmt='svg'; out='inst.svg.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" inst.gp
mv inst.svg.tmp inst.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
gnuplot -e "fmt='png'; out='roofline.png.tmp'; data='roofline.dat'; vnums='0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='naive base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; vai='24.9808 510.466 510.233 510.59 510.194 510.372 510.598 510.621 510.636 510.582 510.737 510.839 510.745 510.792 510.761 510.124 510.016'; vtflops='47.4771 66.7999 66.1905 79.7847 80.6355 81.641 106.459 107.849 109.565 100.387 153.567 175.276 218.24 211.366 211.45 229.432 320.138'; peak_tflops=640.278; bw_tbps=4.05786; xmin=6.2452; xmax=2043.35; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" roofline.gp
mv roofline.png.tmp roofline.png
gnuplot -e "fmt='svg'; out='roofline.svg.tmp'; data='roofline.dat'; vnums='0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='naive base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; vai='24.9808 510.466 510.233 510.59 510.194 510.372 510.598 510.621 510.636 510.582 510.737 510.839 510.745 510.792 510.761 510.124 510.016'; vtflops='47.4771 66.7999 66.1905 79.7847 80.6355 81.641 106.459 107.849 109.565 100.387 153.567 175.276 218.24 211.366 211.45 229.432 320.138'; peak_tflops=640.278; bw_tbps=4.05786; xmin=6.2452; xmax=2043.35; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" roofline.gp
mv roofline.svg.tmp roofline.svg
gnuplot -e "fmt='png'; out='seed.png.tmp'; data='seed.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" seed.gp
mv seed.png.tmp seed.png
gnuplot -e "fmt='svg'; out='seed.svg.tmp'; data='seed.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" seed.gp
mv seed.svg.tmp seed.svg
gnuplot -e "fmt='png'; out='sweep_time.png.tmp'; data='sweep_time.dat'; vnums='0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='naive base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; nvar=17; ncols=21; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 causal 32x32, cold, swept: N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" sweep_time.gp
mv sweep_time.png.tmp sweep_time.png
gnuplot -e "fmt='svg'; out='sweep_time.svg.tmp'; data='sweep_time.dat'; vnums='0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='naive base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; nvar=17; ncols=21; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 causal 32x32, cold, swept: N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" sweep_time.gp
mv sweep_time.svg.tmp sweep_time.svg
gnuplot -e "fmt='png'; out='sweep_mem.png.tmp'; data='sweep_mem.dat'; vnums='0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='naive base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; nvar=17; ncols=18; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 causal 32x32, cold, swept: N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" sweep_mem.gp
mv sweep_mem.png.tmp sweep_mem.png
gnuplot -e "fmt='svg'; out='sweep_mem.svg.tmp'; data='sweep_mem.dat'; vnums='0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='naive base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; nvar=17; ncols=18; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 causal 32x32, cold, swept: N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" sweep_mem.gp
mv sweep_mem.svg.tmp sweep_mem.svg
gnuplot -e "fmt='png'; out='sweep_peers.png.tmp'; data='sweep_peers.dat'; ncols=4; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 causal 32x32, cold, swept: N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" sweep_peers.gp
mv sweep_peers.png.tmp sweep_peers.png
gnuplot -e "fmt='svg'; out='sweep_peers.svg.tmp'; data='sweep_peers.dat'; ncols=4; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 causal 32x32, cold, swept: N = 256, 1024, 4096, 16384'; run_id='20261201-1300-h200-seq'" sweep_peers.gp
mv sweep_peers.svg.tmp sweep_peers.svg
