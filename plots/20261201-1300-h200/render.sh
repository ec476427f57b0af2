#!/bin/sh
# Renders the charts of run 20261201-1300-h200: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='34.88 60.864 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='34.88 60.864 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='waterfall.png.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" waterfall.gp
mv waterfall.png.tmp waterfall.png
gnuplot -e "fmt='svg'; out='waterfall.svg.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" waterfall.gp
mv waterfall.svg.tmp waterfall.svg
gnuplot -e "fmt='png'; out='bytes.png.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 02 03 04 05 07 09 10 11 12 13 14 15 16'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" bytes.gp
mv bytes.png.tmp bytes.png
gnuplot -e "fmt='svg'; out='bytes.svg.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 02 03 04 05 07 09 10 11 12 13 14 15 16'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" bytes.gp
mv bytes.svg.tmp bytes.svg
gnuplot -e "fmt='png'; out='l2hit.png.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" l2hit.gp
mv l2hit.png.tmp l2hit.png
gnuplot -e "fmt='svg'; out='l2hit.svg.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" l2hit.gp
mv l2hit.svg.tmp l2hit.svg
gnuplot -e "fmt='png'; out='inst.png.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" inst.gp
mv inst.png.tmp inst.png
gnuplot -e "fmt='svg'; out='inst.svg.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" inst.gp
mv inst.svg.tmp inst.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
gnuplot -e "fmt='png'; out='roofline.png.tmp'; data='roofline.dat'; vnums='0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='naive base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; vai='24.9689 510.466 510.504 510.59 510.31 510.357 510.349 510.636 510.737 510.59 510.699 510.792 510.753 510.737 510.745 510.132 510'; vtflops='47.6287 67.3192 66.3787 79.3718 81.2702 81.1596 107.849 107.805 108.001 99.7716 152.781 175.048 219.042 211.783 211.117 228.456 321.287'; peak_tflops=639.76; bw_tbps=4.0761; xmin=6.24223; xmax=2043.17; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" roofline.gp
mv roofline.png.tmp roofline.png
gnuplot -e "fmt='svg'; out='roofline.svg.tmp'; data='roofline.dat'; vnums='0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='naive base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; vai='24.9689 510.466 510.504 510.59 510.31 510.357 510.349 510.636 510.737 510.59 510.699 510.792 510.753 510.737 510.745 510.132 510'; vtflops='47.6287 67.3192 66.3787 79.3718 81.2702 81.1596 107.849 107.805 108.001 99.7716 152.781 175.048 219.042 211.783 211.117 228.456 321.287'; peak_tflops=639.76; bw_tbps=4.0761; xmin=6.24223; xmax=2043.17; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" roofline.gp
mv roofline.svg.tmp roofline.svg
gnuplot -e "fmt='png'; out='seed.png.tmp'; data='seed.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" seed.gp
mv seed.png.tmp seed.png
gnuplot -e "fmt='svg'; out='seed.svg.tmp'; data='seed.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1300-h200'" seed.gp
mv seed.svg.tmp seed.svg
