#!/bin/sh
# Renders the charts of run 20261201-1300-h200-tiles: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='34.88 60.864 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='34.88 60.864 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='waterfall.png.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" waterfall.gp
mv waterfall.png.tmp waterfall.png
gnuplot -e "fmt='svg'; out='waterfall.svg.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" waterfall.gp
mv waterfall.svg.tmp waterfall.svg
gnuplot -e "fmt='png'; out='bytes.png.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 02 03 04 05 06 07 09 10 13 14 15 16'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" bytes.gp
mv bytes.png.tmp bytes.png
gnuplot -e "fmt='svg'; out='bytes.svg.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 02 03 04 05 06 07 09 10 13 14 15 16'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" bytes.gp
mv bytes.svg.tmp bytes.svg
gnuplot -e "fmt='png'; out='l2hit.png.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" l2hit.gp
mv l2hit.png.tmp l2hit.png
gnuplot -e "fmt='svg'; out='l2hit.svg.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" l2hit.gp
mv l2hit.svg.tmp l2hit.svg
gnuplot -e "fmt='png'; out='inst.png.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" inst.gp
mv inst.png.tmp inst.png
gnuplot -e "fmt='svg'; out='inst.svg.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" inst.gp
mv inst.svg.tmp inst.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
gnuplot -e "fmt='png'; out='roofline.png.tmp'; data='roofline.dat'; vnums='1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; vai='509.249 510.551 510.59 510.326 510.279 510.535 510.442 510.636 510.582 510.784 510.776 510.722 510.745 510.737 510.116 510.031'; vtflops='66.3869 66.264 79.4658 80.4421 81.0616 107.288 107.331 110.399 99.753 153.129 174.933 218.774 211.117 210.62 229.432 317.863'; peak_tflops=640.759; bw_tbps=4.06573; xmin=39.4001; xmax=2043.14; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" roofline.gp
mv roofline.png.tmp roofline.png
gnuplot -e "fmt='svg'; out='roofline.svg.tmp'; data='roofline.dat'; vnums='1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; vai='509.249 510.551 510.59 510.326 510.279 510.535 510.442 510.636 510.582 510.784 510.776 510.722 510.745 510.737 510.116 510.031'; vtflops='66.3869 66.264 79.4658 80.4421 81.0616 107.288 107.331 110.399 99.753 153.129 174.933 218.774 211.117 210.62 229.432 317.863'; peak_tflops=640.759; bw_tbps=4.06573; xmin=39.4001; xmax=2043.14; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" roofline.gp
mv roofline.svg.tmp roofline.svg
gnuplot -e "fmt='png'; out='seed.png.tmp'; data='seed.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" seed.gp
mv seed.png.tmp seed.png
gnuplot -e "fmt='svg'; out='seed.svg.tmp'; data='seed.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-1300-h200-tiles'" seed.gp
mv seed.svg.tmp seed.svg
