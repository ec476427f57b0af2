#!/bin/sh
# Renders the charts of run 20261201-1430-h200-hopper-full: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2'; peer_times='36.64 59.2'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2'; peer_times='36.64 59.2'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='waterfall.png.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" waterfall.gp
mv waterfall.png.tmp waterfall.png
gnuplot -e "fmt='svg'; out='waterfall.svg.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" waterfall.gp
mv waterfall.svg.tmp waterfall.svg
gnuplot -e "fmt='png'; out='bytes.png.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 13 14 16 17'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" bytes.gp
mv bytes.png.tmp bytes.png
gnuplot -e "fmt='svg'; out='bytes.svg.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 13 14 16 17'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" bytes.gp
mv bytes.svg.tmp bytes.svg
gnuplot -e "fmt='png'; out='l2hit.png.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" l2hit.gp
mv l2hit.png.tmp l2hit.png
gnuplot -e "fmt='svg'; out='l2hit.svg.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" l2hit.gp
mv l2hit.svg.tmp l2hit.svg
gnuplot -e "fmt='png'; out='inst.png.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" inst.gp
mv inst.png.tmp inst.png
gnuplot -e "fmt='svg'; out='inst.svg.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" inst.gp
mv inst.svg.tmp inst.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
gnuplot -e "fmt='png'; out='roofline.png.tmp'; data='roofline.dat'; vnums='8 9 10 11 12 13 14 15 16 17'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles'; vai='1018.07 1019.55 1020.28 1020.84 1021.34 1020.92 1021.41 1020.19 1019.88 1019.91'; vtflops='208.696 224.444 232.663 316.738 385.406 372.052 375.041 404.27 458.472 462.82'; peak_tflops=636.267; bw_tbps=4.03105; xmin=39.4604; xmax=4085.65; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" roofline.gp
mv roofline.png.tmp roofline.png
gnuplot -e "fmt='svg'; out='roofline.svg.tmp'; data='roofline.dat'; vnums='8 9 10 11 12 13 14 15 16 17'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles'; vai='1018.07 1019.55 1020.28 1020.84 1021.34 1020.92 1021.41 1020.19 1019.88 1019.91'; vtflops='208.696 224.444 232.663 316.738 385.406 372.052 375.041 404.27 458.472 462.82'; peak_tflops=636.267; bw_tbps=4.03105; xmin=39.4604; xmax=4085.65; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 non-causal 128x128, cold; the run sweeps N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" roofline.gp
mv roofline.svg.tmp roofline.svg
gnuplot -e "fmt='png'; out='sweep_time.png.tmp'; data='sweep_time.dat'; vnums='8 9 10 11 12 13 14 15 16 17'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles'; nvar=10; ncols=13; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" sweep_time.gp
mv sweep_time.png.tmp sweep_time.png
gnuplot -e "fmt='svg'; out='sweep_time.svg.tmp'; data='sweep_time.dat'; vnums='8 9 10 11 12 13 14 15 16 17'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles'; nvar=10; ncols=13; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" sweep_time.gp
mv sweep_time.svg.tmp sweep_time.svg
gnuplot -e "fmt='png'; out='sweep_mem.png.tmp'; data='sweep_mem.dat'; vnums='8 9 10 11 12 13 14 15 16 17'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles'; nvar=10; ncols=11; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" sweep_mem.gp
mv sweep_mem.png.tmp sweep_mem.png
gnuplot -e "fmt='svg'; out='sweep_mem.svg.tmp'; data='sweep_mem.dat'; vnums='8 9 10 11 12 13 14 15 16 17'; vslugs='const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles'; nvar=10; ncols=11; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" sweep_mem.gp
mv sweep_mem.svg.tmp sweep_mem.svg
gnuplot -e "fmt='png'; out='sweep_peers.png.tmp'; data='sweep_peers.dat'; ncols=3; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" sweep_peers.gp
mv sweep_peers.png.tmp sweep_peers.png
gnuplot -e "fmt='svg'; out='sweep_peers.svg.tmp'; data='sweep_peers.dat'; ncols=3; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 non-causal 128x128, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1430-h200-hopper-full'" sweep_peers.gp
mv sweep_peers.svg.tmp sweep_peers.svg
