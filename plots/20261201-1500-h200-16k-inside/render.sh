#!/bin/sh
# Renders the charts of run 20261201-1500-h200-16k-inside: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='4010.38 6741.44 12651'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='4010.38 6741.44 12651'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='waterfall.png.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" waterfall.gp
mv waterfall.png.tmp waterfall.png
gnuplot -e "fmt='svg'; out='waterfall.svg.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" waterfall.gp
mv waterfall.svg.tmp waterfall.svg
gnuplot -e "fmt='png'; out='bytes.png.tmp'; data='bytes.dat'; dram_min=402.653; zeros=''; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" bytes.gp
mv bytes.png.tmp bytes.png
gnuplot -e "fmt='svg'; out='bytes.svg.tmp'; data='bytes.dat'; dram_min=402.653; zeros=''; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" bytes.gp
mv bytes.svg.tmp bytes.svg
gnuplot -e "fmt='png'; out='l2hit.png.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" l2hit.gp
mv l2hit.png.tmp l2hit.png
gnuplot -e "fmt='svg'; out='l2hit.svg.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" l2hit.gp
mv l2hit.svg.tmp l2hit.svg
gnuplot -e "fmt='png'; out='inst.png.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" inst.gp
mv inst.png.tmp inst.png
gnuplot -e "fmt='svg'; out='inst.svg.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" inst.gp
mv inst.svg.tmp inst.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
gnuplot -e "fmt='png'; out='roofline.png.tmp'; data='roofline.dat'; vnums='15 16'; vslugs='overlap persistent'; vai='5608.62 643.895'; vtflops='546.879 541.077'; peak_tflops=638.579; bw_tbps=4.03687; xmin=39.5467; xmax=22434.5; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" roofline.gp
mv roofline.png.tmp roofline.png
gnuplot -e "fmt='svg'; out='roofline.svg.tmp'; data='roofline.dat'; vnums='15 16'; vslugs='overlap persistent'; vai='5608.62 643.895'; vtflops='546.879 541.077'; peak_tflops=638.579; bw_tbps=4.03687; xmin=39.5467; xmax=22434.5; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" roofline.gp
mv roofline.svg.tmp roofline.svg
gnuplot -e "fmt='png'; out='timeline_15.png.tmp'; label='15 overlap'; dt=20.224; tail_text='the last 201.2 µs (6% of the launch) ran with fewer than 90% of SMs busy'; tail_start=3356.93; data='timeline_15.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" timeline.gp
mv timeline_15.png.tmp timeline_15.png
gnuplot -e "fmt='svg'; out='timeline_15.svg.tmp'; label='15 overlap'; dt=20.224; tail_text='the last 201.2 µs (6% of the launch) ran with fewer than 90% of SMs busy'; tail_start=3356.93; data='timeline_15.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" timeline.gp
mv timeline_15.svg.tmp timeline_15.svg
gnuplot -e "fmt='png'; out='timeline_16.png.tmp'; label='16 persistent'; dt=20.224; tail_text='the last 81.2 µs (2% of the launch) ran with fewer than 90% of SMs busy'; tail_start=3475.46; data='timeline_16.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" timeline.gp
mv timeline_16.png.tmp timeline_16.png
gnuplot -e "fmt='svg'; out='timeline_16.svg.tmp'; label='16 persistent'; dt=20.224; tail_text='the last 81.2 µs (2% of the launch) ran with fewer than 90% of SMs busy'; tail_start=3475.46; data='timeline_16.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" timeline.gp
mv timeline_16.svg.tmp timeline_16.svg
gnuplot -e "fmt='png'; out='timeline_cudnn.png.tmp'; label='cudnn (peer)'; dt=19.456; tail_text='the last 174.6 µs (5% of the launch) ran with fewer than 90% of SMs busy'; tail_start=3257.34; data='timeline_cudnn.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" timeline.gp
mv timeline_cudnn.png.tmp timeline_cudnn.png
gnuplot -e "fmt='svg'; out='timeline_cudnn.svg.tmp'; label='cudnn (peer)'; dt=19.456; tail_text='the last 174.6 µs (5% of the launch) ran with fewer than 90% of SMs busy'; tail_start=3257.34; data='timeline_cudnn.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" timeline.gp
mv timeline_cudnn.svg.tmp timeline_cudnn.svg
gnuplot -e "fmt='png'; out='timeline_step_16.png.tmp'; title_a='15 overlap: 3558.1 µs; the last 201.2 µs (6% of the launch) ran with fewer than 90% of SMs busy'; num_a=15; title_b='16 persistent: 3556.6 µs; the last 81.2 µs (2% of the launch) ran with fewer than 90% of SMs busy'; num_b=16; data='timeline_step_16.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" timeline_step.gp
mv timeline_step_16.png.tmp timeline_step_16.png
gnuplot -e "fmt='svg'; out='timeline_step_16.svg.tmp'; title_a='15 overlap: 3558.1 µs; the last 201.2 µs (6% of the launch) ran with fewer than 90% of SMs busy'; num_a=15; title_b='16 persistent: 3556.6 µs; the last 81.2 µs (2% of the launch) ran with fewer than 90% of SMs busy'; num_b=16; data='timeline_step_16.dat'; subtitle='NVIDIA H200, B=2 N=16384 Hq=16 Hkv=8 D=128 causal 128x128, cold'; run_id='20261201-1500-h200-16k-inside'" timeline_step.gp
mv timeline_step_16.svg.tmp timeline_step_16.svg
