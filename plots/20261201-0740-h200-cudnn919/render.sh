#!/bin/sh
# Renders the charts of run 20261201-0740-h200-cudnn919: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='34.88 60.864 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='34.88 60.864 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='bytes.png.tmp'; data='bytes.dat'; dram_min=25.1658; zeros=''; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" bytes.gp
mv bytes.png.tmp bytes.png
gnuplot -e "fmt='svg'; out='bytes.svg.tmp'; data='bytes.dat'; dram_min=25.1658; zeros=''; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" bytes.gp
mv bytes.svg.tmp bytes.svg
gnuplot -e "fmt='png'; out='l2hit.png.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" l2hit.gp
mv l2hit.png.tmp l2hit.png
gnuplot -e "fmt='svg'; out='l2hit.svg.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" l2hit.gp
mv l2hit.svg.tmp l2hit.svg
gnuplot -e "fmt='png'; out='inst.png.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" inst.gp
mv inst.png.tmp inst.png
gnuplot -e "fmt='svg'; out='inst.svg.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" inst.gp
mv inst.svg.tmp inst.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
gnuplot -e "fmt='png'; out='roofline.png.tmp'; data='roofline.dat'; vnums='16'; vslugs='persistent'; vai='509.876'; vtflops='315.806'; peak_tflops=643.515; bw_tbps=4.06523; xmin=39.5743; xmax=2039.5; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" roofline.gp
mv roofline.png.tmp roofline.png
gnuplot -e "fmt='svg'; out='roofline.svg.tmp'; data='roofline.dat'; vnums='16'; vslugs='persistent'; vai='509.876'; vtflops='315.806'; peak_tflops=643.515; bw_tbps=4.06523; xmin=39.5743; xmax=2039.5; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-0740-h200-cudnn919'" roofline.gp
mv roofline.svg.tmp roofline.svg
