#!/bin/sh
# Renders the charts of run 20261201-1800-h200-repeat-2: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2'; peer_times='2535.33 3748.9'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=64 causal 128x128, cold; the run sweeps D = 64, 128'; run_id='20261201-1800-h200-repeat-2'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2'; peer_times='2535.33 3748.9'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=64 causal 128x128, cold; the run sweeps D = 64, 128'; run_id='20261201-1800-h200-repeat-2'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=64 causal 128x128, cold; the run sweeps D = 64, 128'; run_id='20261201-1800-h200-repeat-2'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=64 causal 128x128, cold; the run sweeps D = 64, 128'; run_id='20261201-1800-h200-repeat-2'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
