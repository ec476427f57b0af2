#!/bin/sh
# Renders the charts of run 20261201-1800-h200-hopper-d64: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names=''; peer_times=''; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names=''; peer_times=''; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='waterfall.png.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" waterfall.gp
mv waterfall.png.tmp waterfall.png
gnuplot -e "fmt='svg'; out='waterfall.svg.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" waterfall.gp
mv waterfall.svg.tmp waterfall.svg
gnuplot -e "fmt='png'; out='bytes.png.tmp'; data='bytes.dat'; dram_min=50.3316; zeros=''; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" bytes.gp
mv bytes.png.tmp bytes.png
gnuplot -e "fmt='svg'; out='bytes.svg.tmp'; data='bytes.dat'; dram_min=50.3316; zeros=''; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" bytes.gp
mv bytes.svg.tmp bytes.svg
gnuplot -e "fmt='png'; out='l2hit.png.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" l2hit.gp
mv l2hit.png.tmp l2hit.png
gnuplot -e "fmt='svg'; out='l2hit.svg.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" l2hit.gp
mv l2hit.svg.tmp l2hit.svg
gnuplot -e "fmt='png'; out='inst.png.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" inst.gp
mv inst.png.tmp inst.png
gnuplot -e "fmt='svg'; out='inst.svg.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" inst.gp
mv inst.svg.tmp inst.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
gnuplot -e "fmt='png'; out='roofline.png.tmp'; data='roofline.dat'; vnums='9 10 11 12 13 14 15 16 17 18 19'; vslugs='big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; vai='1859.86 1817.62 1813.61 1800.46 1816.11 1818.14 1819.53 1856.82 1879.64 1871.66 1847.93'; vtflops='225.884 223.918 267.983 248.465 267.616 250.508 276.381 342.72 403.056 407.453 417.068'; peak_tflops=640.908; bw_tbps=4.06179; xmin=39.4474; xmax=7518.57; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" roofline.gp
mv roofline.png.tmp roofline.png
gnuplot -e "fmt='svg'; out='roofline.svg.tmp'; data='roofline.dat'; vnums='9 10 11 12 13 14 15 16 17 18 19'; vslugs='big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; vai='1859.86 1817.62 1813.61 1800.46 1816.11 1818.14 1819.53 1856.82 1879.64 1871.66 1847.93'; vtflops='225.884 223.918 267.983 248.465 267.616 250.508 276.381 342.72 403.056 407.453 417.068'; peak_tflops=640.908; bw_tbps=4.06179; xmin=39.4474; xmax=7518.57; subtitle='NVIDIA H200, B=2 N=4096 Hq=16 Hkv=8 D=64 causal 128x64, cold; the run sweeps N = 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-hopper-d64'" roofline.gp
mv roofline.svg.tmp roofline.svg
gnuplot -e "fmt='png'; out='sweep_time.png.tmp'; data='sweep_time.dat'; vnums='9 10 11 12 13 14 15 16 17 18 19'; vslugs='big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; nvar=11; ncols=14; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=64 causal 128x64, cold, swept: N = 4096, 16384'; run_id='20261201-1800-h200-hopper-d64'" sweep_time.gp
mv sweep_time.png.tmp sweep_time.png
gnuplot -e "fmt='svg'; out='sweep_time.svg.tmp'; data='sweep_time.dat'; vnums='9 10 11 12 13 14 15 16 17 18 19'; vslugs='big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; nvar=11; ncols=14; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=64 causal 128x64, cold, swept: N = 4096, 16384'; run_id='20261201-1800-h200-hopper-d64'" sweep_time.gp
mv sweep_time.svg.tmp sweep_time.svg
gnuplot -e "fmt='png'; out='sweep_mem.png.tmp'; data='sweep_mem.dat'; vnums='9 10 11 12 13 14 15 16 17 18 19'; vslugs='big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; nvar=11; ncols=12; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=64 causal 128x64, cold, swept: N = 4096, 16384'; run_id='20261201-1800-h200-hopper-d64'" sweep_mem.gp
mv sweep_mem.png.tmp sweep_mem.png
gnuplot -e "fmt='svg'; out='sweep_mem.svg.tmp'; data='sweep_mem.dat'; vnums='9 10 11 12 13 14 15 16 17 18 19'; vslugs='big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; nvar=11; ncols=12; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=64 causal 128x64, cold, swept: N = 4096, 16384'; run_id='20261201-1800-h200-hopper-d64'" sweep_mem.gp
mv sweep_mem.svg.tmp sweep_mem.svg
gnuplot -e "fmt='png'; out='sweep_peers.png.tmp'; data='sweep_peers.dat'; ncols=3; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=64 causal 128x64, cold, swept: N = 4096, 16384'; run_id='20261201-1800-h200-hopper-d64'" sweep_peers.gp
mv sweep_peers.png.tmp sweep_peers.png
gnuplot -e "fmt='svg'; out='sweep_peers.svg.tmp'; data='sweep_peers.dat'; ncols=3; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=64 causal 128x64, cold, swept: N = 4096, 16384'; run_id='20261201-1800-h200-hopper-d64'" sweep_peers.gp
mv sweep_peers.svg.tmp sweep_peers.svg
