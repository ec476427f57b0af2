#!/bin/sh
# Renders the charts of run 20261201-1800-h200-hopper-full: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2'; peer_times='36.896 58.848'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2'; peer_times='36.896 58.848'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='waterfall.png.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" waterfall.gp
mv waterfall.png.tmp waterfall.png
gnuplot -e "fmt='svg'; out='waterfall.svg.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" waterfall.gp
mv waterfall.svg.tmp waterfall.svg
gnuplot -e "fmt='png'; out='bytes.png.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 11 15 16 17 18 19'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" bytes.gp
mv bytes.png.tmp bytes.png
gnuplot -e "fmt='svg'; out='bytes.svg.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 11 15 16 17 18 19'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" bytes.gp
mv bytes.svg.tmp bytes.svg
gnuplot -e "fmt='png'; out='l2hit.png.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" l2hit.gp
mv l2hit.png.tmp l2hit.png
gnuplot -e "fmt='svg'; out='l2hit.svg.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" l2hit.gp
mv l2hit.svg.tmp l2hit.svg
gnuplot -e "fmt='png'; out='inst.png.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" inst.gp
mv inst.png.tmp inst.png
gnuplot -e "fmt='svg'; out='inst.svg.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" inst.gp
mv inst.svg.tmp inst.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
gnuplot -e "fmt='png'; out='roofline.png.tmp'; data='roofline.dat'; vnums='8 9 10 11 12 13 14 15 16 17 18 19'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; vai='1002.01 1019.32 1020.43 1020.98 1021.18 1021.3 1021.37 1020.19 1019.95 1019.88 1019.61 1020.02'; vtflops='208.049 224.257 231.96 315.065 387.073 371.28 374.256 407.338 459.257 463.619 478.068 490.293'; peak_tflops=633.791; bw_tbps=3.99743; xmin=39.6374; xmax=4085.46; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" roofline.gp
mv roofline.png.tmp roofline.png
gnuplot -e "fmt='svg'; out='roofline.svg.tmp'; data='roofline.dat'; vnums='8 9 10 11 12 13 14 15 16 17 18 19'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; vai='1002.01 1019.32 1020.43 1020.98 1021.18 1021.3 1021.37 1020.19 1019.95 1019.88 1019.61 1020.02'; vtflops='208.049 224.257 231.96 315.065 387.073 371.28 374.256 407.338 459.257 463.619 478.068 490.293'; peak_tflops=633.791; bw_tbps=3.99743; xmin=39.6374; xmax=4085.46; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" roofline.gp
mv roofline.svg.tmp roofline.svg
gnuplot -e "fmt='png'; out='sweep_time.png.tmp'; data='sweep_time.dat'; vnums='8 9 10 11 12 13 14 15 16 17 18 19'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; nvar=12; ncols=15; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" sweep_time.gp
mv sweep_time.png.tmp sweep_time.png
gnuplot -e "fmt='svg'; out='sweep_time.svg.tmp'; data='sweep_time.dat'; vnums='8 9 10 11 12 13 14 15 16 17 18 19'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; nvar=12; ncols=15; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" sweep_time.gp
mv sweep_time.svg.tmp sweep_time.svg
gnuplot -e "fmt='png'; out='sweep_mem.png.tmp'; data='sweep_mem.dat'; vnums='8 9 10 11 12 13 14 15 16 17 18 19'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; nvar=12; ncols=13; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" sweep_mem.gp
mv sweep_mem.png.tmp sweep_mem.png
gnuplot -e "fmt='svg'; out='sweep_mem.svg.tmp'; data='sweep_mem.dat'; vnums='8 9 10 11 12 13 14 15 16 17 18 19'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; nvar=12; ncols=13; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" sweep_mem.gp
mv sweep_mem.svg.tmp sweep_mem.svg
gnuplot -e "fmt='png'; out='sweep_peers.png.tmp'; data='sweep_peers.dat'; ncols=3; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" sweep_peers.gp
mv sweep_peers.png.tmp sweep_peers.png
gnuplot -e "fmt='svg'; out='sweep_peers.svg.tmp'; data='sweep_peers.dat'; ncols=3; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1800-h200-hopper-full'" sweep_peers.gp
mv sweep_peers.svg.tmp sweep_peers.svg
