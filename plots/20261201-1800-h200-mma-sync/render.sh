#!/bin/sh
# Renders the charts of run 20261201-1800-h200-mma-sync: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='35.488 60.96 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='35.488 60.96 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='waterfall.png.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" waterfall.gp
mv waterfall.png.tmp waterfall.png
gnuplot -e "fmt='svg'; out='waterfall.svg.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" waterfall.gp
mv waterfall.svg.tmp waterfall.svg
gnuplot -e "fmt='png'; out='bytes.png.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 09'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" bytes.gp
mv bytes.png.tmp bytes.png
gnuplot -e "fmt='svg'; out='bytes.svg.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 09'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" bytes.gp
mv bytes.svg.tmp bytes.svg
gnuplot -e "fmt='png'; out='l2hit.png.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" l2hit.gp
mv l2hit.png.tmp l2hit.png
gnuplot -e "fmt='svg'; out='l2hit.svg.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" l2hit.gp
mv l2hit.svg.tmp l2hit.svg
gnuplot -e "fmt='png'; out='inst.png.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" inst.gp
mv inst.png.tmp inst.png
gnuplot -e "fmt='svg'; out='inst.svg.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" inst.gp
mv inst.svg.tmp inst.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
gnuplot -e "fmt='png'; out='roofline.png.tmp'; data='roofline.dat'; vnums='9 10'; vslugs='big_tile tma'; vai='510.644 510.745'; vtflops='146.008 153.086'; peak_tflops=642.023; bw_tbps=3.96953; xmin=40.4344; xmax=2042.98; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" roofline.gp
mv roofline.png.tmp roofline.png
gnuplot -e "fmt='svg'; out='roofline.svg.tmp'; data='roofline.dat'; vnums='9 10'; vslugs='big_tile tma'; vai='510.644 510.745'; vtflops='146.008 153.086'; peak_tflops=642.023; bw_tbps=3.96953; xmin=40.4344; xmax=2042.98; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 128x64, cold; the run sweeps N = 1024, 4096, 16384; BMxBN = 128x64, 128x128'; run_id='20261201-1800-h200-mma-sync'" roofline.gp
mv roofline.svg.tmp roofline.svg
gnuplot -e "fmt='png'; out='sweep_time.png.tmp'; data='sweep_time.dat'; vnums='9 10'; vslugs='big_tile tma'; nvar=2; ncols=6; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 causal 128x64, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1800-h200-mma-sync'" sweep_time.gp
mv sweep_time.png.tmp sweep_time.png
gnuplot -e "fmt='svg'; out='sweep_time.svg.tmp'; data='sweep_time.dat'; vnums='9 10'; vslugs='big_tile tma'; nvar=2; ncols=6; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 causal 128x64, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1800-h200-mma-sync'" sweep_time.gp
mv sweep_time.svg.tmp sweep_time.svg
gnuplot -e "fmt='png'; out='sweep_mem.png.tmp'; data='sweep_mem.dat'; vnums='9 10'; vslugs='big_tile tma'; nvar=2; ncols=3; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 causal 128x64, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1800-h200-mma-sync'" sweep_mem.gp
mv sweep_mem.png.tmp sweep_mem.png
gnuplot -e "fmt='svg'; out='sweep_mem.svg.tmp'; data='sweep_mem.dat'; vnums='9 10'; vslugs='big_tile tma'; nvar=2; ncols=3; subtitle='NVIDIA H200, B=2 Hq=16 Hkv=8 D=128 causal 128x64, cold, swept: N = 1024, 4096, 16384'; run_id='20261201-1800-h200-mma-sync'" sweep_mem.gp
mv sweep_mem.svg.tmp sweep_mem.svg
