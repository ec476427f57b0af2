#!/bin/sh
# Renders the charts of run 20261201-0740-h200-tiles: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='34.88 60.864 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='34.88 60.864 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='waterfall.png.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" waterfall.gp
mv waterfall.png.tmp waterfall.png
gnuplot -e "fmt='svg'; out='waterfall.svg.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" waterfall.gp
mv waterfall.svg.tmp waterfall.svg
gnuplot -e "fmt='png'; out='bytes.png.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 02 03 04 06 08 09 11 12 13 14 16'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" bytes.gp
mv bytes.png.tmp bytes.png
gnuplot -e "fmt='svg'; out='bytes.svg.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 02 03 04 06 08 09 11 12 13 14 16'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" bytes.gp
mv bytes.svg.tmp bytes.svg
gnuplot -e "fmt='png'; out='l2hit.png.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" l2hit.gp
mv l2hit.png.tmp l2hit.png
gnuplot -e "fmt='svg'; out='l2hit.svg.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" l2hit.gp
mv l2hit.svg.tmp l2hit.svg
gnuplot -e "fmt='png'; out='inst.png.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" inst.gp
mv inst.png.tmp inst.png
gnuplot -e "fmt='svg'; out='inst.svg.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" inst.gp
mv inst.svg.tmp inst.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
gnuplot -e "fmt='png'; out='roofline.png.tmp'; data='roofline.dat'; vnums='1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; vai='509.706 511.938 511.914 511.906 511.969 511.969 511.672 511.781 511.898 511.875 511.828 511.938 511.797 511.859 511.852 511.914'; vtflops='66.2722 66.535 79.6663 80.8054 80.8297 106.607 107.633 110.127 97.8263 144.088 173.52 182.733 185.768 205.54 218.418 309.972'; peak_tflops=644.114; bw_tbps=4.07461; xmin=39.52; xmax=2047.88; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" roofline.gp
mv roofline.png.tmp roofline.png
gnuplot -e "fmt='svg'; out='roofline.svg.tmp'; data='roofline.dat'; vnums='1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16'; vslugs='base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent'; vai='509.706 511.938 511.914 511.906 511.969 511.969 511.672 511.781 511.898 511.875 511.828 511.938 511.797 511.859 511.852 511.914'; vtflops='66.2722 66.535 79.6663 80.8054 80.8297 106.607 107.633 110.127 97.8263 144.088 173.52 182.733 185.768 205.54 218.418 309.972'; peak_tflops=644.114; bw_tbps=4.07461; xmin=39.52; xmax=2047.88; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" roofline.gp
mv roofline.svg.tmp roofline.svg
gnuplot -e "fmt='png'; out='seed.png.tmp'; data='seed.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" seed.gp
mv seed.png.tmp seed.png
gnuplot -e "fmt='svg'; out='seed.svg.tmp'; data='seed.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold; the run sweeps BMxBN = 32x32, 64x64, 128x128'; run_id='20261201-0740-h200-tiles'" seed.gp
mv seed.svg.tmp seed.svg
