#!/bin/sh
# Renders the charts of run 20261201-1800-h200: PNG (pngcairo) and SVG from the .dat files here.
# Needs gnuplot (apt-get install gnuplot-nox).
set -e
cd "$(dirname "$0")"
gnuplot -e "fmt='png'; out='time.png.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='35.488 60.96 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" time.gp
mv time.png.tmp time.png
gnuplot -e "fmt='svg'; out='time.svg.tmp'; data='time.dat'; peer_names='cuDNN FlashAttention-2 memory-efficient'; peer_times='35.488 60.96 92.9'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" time.gp
mv time.svg.tmp time.svg
gnuplot -e "fmt='png'; out='waterfall.png.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" waterfall.gp
mv waterfall.png.tmp waterfall.png
gnuplot -e "fmt='svg'; out='waterfall.svg.tmp'; data='waterfall.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" waterfall.gp
mv waterfall.svg.tmp waterfall.svg
gnuplot -e "fmt='png'; out='bytes.png.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 02 03 04 05 07 09 10 12 15 16 17 18'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" bytes.gp
mv bytes.png.tmp bytes.png
gnuplot -e "fmt='svg'; out='bytes.svg.tmp'; data='bytes.dat'; dram_min=25.1658; zeros='DRAM writes (MB) of 02 03 04 05 07 09 10 12 15 16 17 18'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" bytes.gp
mv bytes.svg.tmp bytes.svg
gnuplot -e "fmt='png'; out='l2hit.png.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" l2hit.gp
mv l2hit.png.tmp l2hit.png
gnuplot -e "fmt='svg'; out='l2hit.svg.tmp'; data='l2hit.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" l2hit.gp
mv l2hit.svg.tmp l2hit.svg
gnuplot -e "fmt='png'; out='inst.png.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" inst.gp
mv inst.png.tmp inst.png
gnuplot -e "fmt='svg'; out='inst.svg.tmp'; data='inst.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" inst.gp
mv inst.svg.tmp inst.svg
gnuplot -e "fmt='png'; out='occupancy.png.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" occupancy.gp
mv occupancy.png.tmp occupancy.png
gnuplot -e "fmt='svg'; out='occupancy.svg.tmp'; data='occupancy.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" occupancy.gp
mv occupancy.svg.tmp occupancy.svg
gnuplot -e "fmt='png'; out='roofline.png.tmp'; data='roofline.dat'; vnums='0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19'; vslugs='naive base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; vai='24.9524 510.691 510.761 510.737 510.466 510.481 510.598 510.59 510.706 510.598 510.714 510.512 510.745 510.178 510.699 510.101 509.992 509.69 509.892 510.047'; vtflops='46.9786 66.4033 65.178 77.5377 79.0679 78.3524 108.001 107.288 108.066 145.022 152.131 173.97 216.48 210.29 209.225 227.874 317.675 321.48 325.969 333.046'; peak_tflops=635.063; bw_tbps=4.06277; xmin=6.23811; xmax=2043.04; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" roofline.gp
mv roofline.png.tmp roofline.png
gnuplot -e "fmt='svg'; out='roofline.svg.tmp'; data='roofline.dat'; vnums='0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19'; vslugs='naive base grid_order causal_skip two_stage fp32_state warp_specialize exp2 const_strides big_tile tma wgmma_qk wgmma_pv warpgroups pingpong overlap persistent d64_tiles l2_schedule lean_issue'; vai='24.9524 510.691 510.761 510.737 510.466 510.481 510.598 510.59 510.706 510.598 510.714 510.512 510.745 510.178 510.699 510.101 509.992 509.69 509.892 510.047'; vtflops='46.9786 66.4033 65.178 77.5377 79.0679 78.3524 108.001 107.288 108.066 145.022 152.131 173.97 216.48 210.29 209.225 227.874 317.675 321.48 325.969 333.046'; peak_tflops=635.063; bw_tbps=4.06277; xmin=6.23811; xmax=2043.04; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" roofline.gp
mv roofline.svg.tmp roofline.svg
gnuplot -e "fmt='png'; out='seed.png.tmp'; data='seed.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" seed.gp
mv seed.png.tmp seed.png
gnuplot -e "fmt='svg'; out='seed.svg.tmp'; data='seed.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" seed.gp
mv seed.svg.tmp seed.svg
gnuplot -e "fmt='png'; out='timeline_00.png.tmp'; label='00 naive'; dt=1.024; tail_text='the last 6.4 µs (4% of the launch) ran with fewer than 90% of SMs busy'; tail_start=171.52; data='timeline_00.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_00.png.tmp timeline_00.png
gnuplot -e "fmt='svg'; out='timeline_00.svg.tmp'; label='00 naive'; dt=1.024; tail_text='the last 6.4 µs (4% of the launch) ran with fewer than 90% of SMs busy'; tail_start=171.52; data='timeline_00.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_00.svg.tmp timeline_00.svg
gnuplot -e "fmt='png'; out='timeline_01.png.tmp'; label='01 base'; dt=0.768; tail_text='the last 5.9 µs (5% of the launch) ran with fewer than 90% of SMs busy'; tail_start=121.344; data='timeline_01.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_01.png.tmp timeline_01.png
gnuplot -e "fmt='svg'; out='timeline_01.svg.tmp'; label='01 base'; dt=0.768; tail_text='the last 5.9 µs (5% of the launch) ran with fewer than 90% of SMs busy'; tail_start=121.344; data='timeline_01.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_01.svg.tmp timeline_01.svg
gnuplot -e "fmt='png'; out='timeline_02.png.tmp'; label='02 grid_order'; dt=0.768; tail_text='the last 3.3 µs (3% of the launch) ran with fewer than 90% of SMs busy'; tail_start=126.208; data='timeline_02.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_02.png.tmp timeline_02.png
gnuplot -e "fmt='svg'; out='timeline_02.svg.tmp'; label='02 grid_order'; dt=0.768; tail_text='the last 3.3 µs (3% of the launch) ran with fewer than 90% of SMs busy'; tail_start=126.208; data='timeline_02.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_02.svg.tmp timeline_02.svg
gnuplot -e "fmt='png'; out='timeline_03.png.tmp'; label='03 causal_skip'; dt=0.512; tail_text='the last 30.5 µs (28% of the launch) ran with fewer than 90% of SMs busy'; tail_start=78.848; data='timeline_03.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_03.png.tmp timeline_03.png
gnuplot -e "fmt='svg'; out='timeline_03.svg.tmp'; label='03 causal_skip'; dt=0.512; tail_text='the last 30.5 µs (28% of the launch) ran with fewer than 90% of SMs busy'; tail_start=78.848; data='timeline_03.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_03.svg.tmp timeline_03.svg
gnuplot -e "fmt='png'; out='timeline_04.png.tmp'; label='04 two_stage'; dt=0.512; tail_text='the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; tail_start=78.592; data='timeline_04.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_04.png.tmp timeline_04.png
gnuplot -e "fmt='svg'; out='timeline_04.svg.tmp'; label='04 two_stage'; dt=0.512; tail_text='the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; tail_start=78.592; data='timeline_04.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_04.svg.tmp timeline_04.svg
gnuplot -e "fmt='png'; out='timeline_05.png.tmp'; label='05 fp32_state'; dt=0.512; tail_text='the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; tail_start=79.872; data='timeline_05.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_05.png.tmp timeline_05.png
gnuplot -e "fmt='svg'; out='timeline_05.svg.tmp'; label='05 fp32_state'; dt=0.512; tail_text='the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; tail_start=79.872; data='timeline_05.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_05.svg.tmp timeline_05.svg
gnuplot -e "fmt='png'; out='timeline_06.png.tmp'; label='06 warp_specialize'; dt=0.512; tail_text='the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; tail_start=50.944; data='timeline_06.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_06.png.tmp timeline_06.png
gnuplot -e "fmt='svg'; out='timeline_06.svg.tmp'; label='06 warp_specialize'; dt=0.512; tail_text='the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; tail_start=50.944; data='timeline_06.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_06.svg.tmp timeline_06.svg
gnuplot -e "fmt='png'; out='timeline_07.png.tmp'; label='07 exp2'; dt=0.512; tail_text='the last 29.4 µs (37% of the launch) ran with fewer than 90% of SMs busy'; tail_start=49.152; data='timeline_07.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_07.png.tmp timeline_07.png
gnuplot -e "fmt='svg'; out='timeline_07.svg.tmp'; label='07 exp2'; dt=0.512; tail_text='the last 29.4 µs (37% of the launch) ran with fewer than 90% of SMs busy'; tail_start=49.152; data='timeline_07.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_07.svg.tmp timeline_07.svg
gnuplot -e "fmt='png'; out='timeline_08.png.tmp'; label='08 const_strides'; dt=0.512; tail_text='the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; tail_start=49.92; data='timeline_08.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_08.png.tmp timeline_08.png
gnuplot -e "fmt='svg'; out='timeline_08.svg.tmp'; label='08 const_strides'; dt=0.512; tail_text='the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; tail_start=49.92; data='timeline_08.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_08.svg.tmp timeline_08.svg
gnuplot -e "fmt='png'; out='timeline_09.png.tmp'; label='09 big_tile'; dt=0.256; tail_text='the last 26.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; tail_start=28.928; data='timeline_09.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_09.png.tmp timeline_09.png
gnuplot -e "fmt='svg'; out='timeline_09.svg.tmp'; label='09 big_tile'; dt=0.256; tail_text='the last 26.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; tail_start=28.928; data='timeline_09.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_09.svg.tmp timeline_09.svg
gnuplot -e "fmt='png'; out='timeline_10.png.tmp'; label='10 tma'; dt=0.256; tail_text='the last 25.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; tail_start=27.392; data='timeline_10.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_10.png.tmp timeline_10.png
gnuplot -e "fmt='svg'; out='timeline_10.svg.tmp'; label='10 tma'; dt=0.256; tail_text='the last 25.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; tail_start=27.392; data='timeline_10.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_10.svg.tmp timeline_10.svg
gnuplot -e "fmt='png'; out='timeline_11.png.tmp'; label='11 wgmma_qk'; dt=0.256; tail_text='the last 20.7 µs (45% of the launch) ran with fewer than 90% of SMs busy'; tail_start=25.088; data='timeline_11.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_11.png.tmp timeline_11.png
gnuplot -e "fmt='svg'; out='timeline_11.svg.tmp'; label='11 wgmma_qk'; dt=0.256; tail_text='the last 20.7 µs (45% of the launch) ran with fewer than 90% of SMs busy'; tail_start=25.088; data='timeline_11.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_11.svg.tmp timeline_11.svg
gnuplot -e "fmt='png'; out='timeline_12.png.tmp'; label='12 wgmma_pv'; dt=0.256; tail_text='the last 16.6 µs (45% of the launch) ran with fewer than 90% of SMs busy'; tail_start=20.736; data='timeline_12.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_12.png.tmp timeline_12.png
gnuplot -e "fmt='svg'; out='timeline_12.svg.tmp'; label='12 wgmma_pv'; dt=0.256; tail_text='the last 16.6 µs (45% of the launch) ran with fewer than 90% of SMs busy'; tail_start=20.736; data='timeline_12.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_12.svg.tmp timeline_12.svg
gnuplot -e "fmt='png'; out='timeline_13.png.tmp'; label='13 warpgroups'; dt=0.256; tail_text='the last 17.4 µs (45% of the launch) ran with fewer than 90% of SMs busy'; tail_start=21.248; data='timeline_13.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_13.png.tmp timeline_13.png
gnuplot -e "fmt='svg'; out='timeline_13.svg.tmp'; label='13 warpgroups'; dt=0.256; tail_text='the last 17.4 µs (45% of the launch) ran with fewer than 90% of SMs busy'; tail_start=21.248; data='timeline_13.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_13.svg.tmp timeline_13.svg
gnuplot -e "fmt='png'; out='timeline_14.png.tmp'; label='14 pingpong'; dt=0.256; tail_text='the last 17.7 µs (46% of the launch) ran with fewer than 90% of SMs busy'; tail_start=20.992; data='timeline_14.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_14.png.tmp timeline_14.png
gnuplot -e "fmt='svg'; out='timeline_14.svg.tmp'; label='14 pingpong'; dt=0.256; tail_text='the last 17.7 µs (46% of the launch) ran with fewer than 90% of SMs busy'; tail_start=20.992; data='timeline_14.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_14.svg.tmp timeline_14.svg
gnuplot -e "fmt='png'; out='timeline_15.png.tmp'; label='15 overlap'; dt=0.256; tail_text='the last 15.4 µs (43% of the launch) ran with fewer than 90% of SMs busy'; tail_start=19.968; data='timeline_15.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_15.png.tmp timeline_15.png
gnuplot -e "fmt='svg'; out='timeline_15.svg.tmp'; label='15 overlap'; dt=0.256; tail_text='the last 15.4 µs (43% of the launch) ran with fewer than 90% of SMs busy'; tail_start=19.968; data='timeline_15.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_15.svg.tmp timeline_15.svg
gnuplot -e "fmt='png'; out='timeline_16.png.tmp'; label='16 persistent'; dt=0.256; tail_text='the last 2.8 µs (11% of the launch) ran with fewer than 90% of SMs busy'; tail_start=22.784; data='timeline_16.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_16.png.tmp timeline_16.png
gnuplot -e "fmt='svg'; out='timeline_16.svg.tmp'; label='16 persistent'; dt=0.256; tail_text='the last 2.8 µs (11% of the launch) ran with fewer than 90% of SMs busy'; tail_start=22.784; data='timeline_16.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_16.svg.tmp timeline_16.svg
gnuplot -e "fmt='png'; out='timeline_17.png.tmp'; label='17 d64_tiles'; dt=0.256; tail_text='the last 3.3 µs (13% of the launch) ran with fewer than 90% of SMs busy'; tail_start=22.272; data='timeline_17.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_17.png.tmp timeline_17.png
gnuplot -e "fmt='svg'; out='timeline_17.svg.tmp'; label='17 d64_tiles'; dt=0.256; tail_text='the last 3.3 µs (13% of the launch) ran with fewer than 90% of SMs busy'; tail_start=22.272; data='timeline_17.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_17.svg.tmp timeline_17.svg
gnuplot -e "fmt='png'; out='timeline_18.png.tmp'; label='18 l2_schedule'; dt=0.256; tail_text='the last 2.3 µs (9% of the launch) ran with fewer than 90% of SMs busy'; tail_start=22.528; data='timeline_18.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_18.png.tmp timeline_18.png
gnuplot -e "fmt='svg'; out='timeline_18.svg.tmp'; label='18 l2_schedule'; dt=0.256; tail_text='the last 2.3 µs (9% of the launch) ran with fewer than 90% of SMs busy'; tail_start=22.528; data='timeline_18.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_18.svg.tmp timeline_18.svg
gnuplot -e "fmt='png'; out='timeline_19.png.tmp'; label='19 lean_issue'; dt=0.256; tail_text='the last 2.3 µs (10% of the launch) ran with fewer than 90% of SMs busy'; tail_start=21.504; data='timeline_19.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_19.png.tmp timeline_19.png
gnuplot -e "fmt='svg'; out='timeline_19.svg.tmp'; label='19 lean_issue'; dt=0.256; tail_text='the last 2.3 µs (10% of the launch) ran with fewer than 90% of SMs busy'; tail_start=21.504; data='timeline_19.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_19.svg.tmp timeline_19.svg
gnuplot -e "fmt='png'; out='timeline_cublas.png.tmp'; label='cublas (peer)'; dt=0.768; tail_text='the last 1.3 µs (1% of the launch) ran with fewer than 90% of SMs busy'; tail_start=122.624; data='timeline_cublas.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_cublas.png.tmp timeline_cublas.png
gnuplot -e "fmt='svg'; out='timeline_cublas.svg.tmp'; label='cublas (peer)'; dt=0.768; tail_text='the last 1.3 µs (1% of the launch) ran with fewer than 90% of SMs busy'; tail_start=122.624; data='timeline_cublas.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_cublas.svg.tmp timeline_cublas.svg
gnuplot -e "fmt='png'; out='timeline_cudnn.png.tmp'; label='cudnn (peer)'; dt=0.256; tail_text='the last 12.3 µs (42% of the launch) ran with fewer than 90% of SMs busy'; tail_start=16.896; data='timeline_cudnn.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_cudnn.png.tmp timeline_cudnn.png
gnuplot -e "fmt='svg'; out='timeline_cudnn.svg.tmp'; label='cudnn (peer)'; dt=0.256; tail_text='the last 12.3 µs (42% of the launch) ran with fewer than 90% of SMs busy'; tail_start=16.896; data='timeline_cudnn.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline.gp
mv timeline_cudnn.svg.tmp timeline_cudnn.svg
gnuplot -e "fmt='png'; out='timeline_step_01.png.tmp'; title_a='00 naive: 177.9 µs; the last 6.4 µs (4% of the launch) ran with fewer than 90% of SMs busy'; num_a=0; title_b='01 base: 127.2 µs; the last 5.9 µs (5% of the launch) ran with fewer than 90% of SMs busy'; num_b=1; data='timeline_step_01.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_01.png.tmp timeline_step_01.png
gnuplot -e "fmt='svg'; out='timeline_step_01.svg.tmp'; title_a='00 naive: 177.9 µs; the last 6.4 µs (4% of the launch) ran with fewer than 90% of SMs busy'; num_a=0; title_b='01 base: 127.2 µs; the last 5.9 µs (5% of the launch) ran with fewer than 90% of SMs busy'; num_b=1; data='timeline_step_01.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_01.svg.tmp timeline_step_01.svg
gnuplot -e "fmt='png'; out='timeline_step_02.png.tmp'; title_a='01 base: 127.2 µs; the last 5.9 µs (5% of the launch) ran with fewer than 90% of SMs busy'; num_a=1; title_b='02 grid_order: 129.5 µs; the last 3.3 µs (3% of the launch) ran with fewer than 90% of SMs busy'; num_b=2; data='timeline_step_02.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_02.png.tmp timeline_step_02.png
gnuplot -e "fmt='svg'; out='timeline_step_02.svg.tmp'; title_a='01 base: 127.2 µs; the last 5.9 µs (5% of the launch) ran with fewer than 90% of SMs busy'; num_a=1; title_b='02 grid_order: 129.5 µs; the last 3.3 µs (3% of the launch) ran with fewer than 90% of SMs busy'; num_b=2; data='timeline_step_02.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_02.svg.tmp timeline_step_02.svg
gnuplot -e "fmt='png'; out='timeline_step_03.png.tmp'; title_a='02 grid_order: 129.5 µs; the last 3.3 µs (3% of the launch) ran with fewer than 90% of SMs busy'; num_a=2; title_b='03 causal_skip: 109.3 µs; the last 30.5 µs (28% of the launch) ran with fewer than 90% of SMs busy'; num_b=3; data='timeline_step_03.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_03.png.tmp timeline_step_03.png
gnuplot -e "fmt='svg'; out='timeline_step_03.svg.tmp'; title_a='02 grid_order: 129.5 µs; the last 3.3 µs (3% of the launch) ran with fewer than 90% of SMs busy'; num_a=2; title_b='03 causal_skip: 109.3 µs; the last 30.5 µs (28% of the launch) ran with fewer than 90% of SMs busy'; num_b=3; data='timeline_step_03.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_03.svg.tmp timeline_step_03.svg
gnuplot -e "fmt='png'; out='timeline_step_04.png.tmp'; title_a='03 causal_skip: 109.3 µs; the last 30.5 µs (28% of the launch) ran with fewer than 90% of SMs busy'; num_a=3; title_b='04 two_stage: 103.7 µs; the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; num_b=4; data='timeline_step_04.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_04.png.tmp timeline_step_04.png
gnuplot -e "fmt='svg'; out='timeline_step_04.svg.tmp'; title_a='03 causal_skip: 109.3 µs; the last 30.5 µs (28% of the launch) ran with fewer than 90% of SMs busy'; num_a=3; title_b='04 two_stage: 103.7 µs; the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; num_b=4; data='timeline_step_04.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_04.svg.tmp timeline_step_04.svg
gnuplot -e "fmt='png'; out='timeline_step_05.png.tmp'; title_a='04 two_stage: 103.7 µs; the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; num_a=4; title_b='05 fp32_state: 105.0 µs; the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; num_b=5; data='timeline_step_05.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_05.png.tmp timeline_step_05.png
gnuplot -e "fmt='svg'; out='timeline_step_05.svg.tmp'; title_a='04 two_stage: 103.7 µs; the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; num_a=4; title_b='05 fp32_state: 105.0 µs; the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; num_b=5; data='timeline_step_05.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_05.svg.tmp timeline_step_05.svg
gnuplot -e "fmt='png'; out='timeline_step_06.png.tmp'; title_a='05 fp32_state: 105.0 µs; the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; num_a=5; title_b='06 warp_specialize: 77.1 µs; the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; num_b=6; data='timeline_step_06.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_06.png.tmp timeline_step_06.png
gnuplot -e "fmt='svg'; out='timeline_step_06.svg.tmp'; title_a='05 fp32_state: 105.0 µs; the last 25.1 µs (24% of the launch) ran with fewer than 90% of SMs busy'; num_a=5; title_b='06 warp_specialize: 77.1 µs; the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; num_b=6; data='timeline_step_06.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_06.svg.tmp timeline_step_06.svg
gnuplot -e "fmt='png'; out='timeline_step_07.png.tmp'; title_a='06 warp_specialize: 77.1 µs; the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; num_a=6; title_b='07 exp2: 78.6 µs; the last 29.4 µs (37% of the launch) ran with fewer than 90% of SMs busy'; num_b=7; data='timeline_step_07.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_07.png.tmp timeline_step_07.png
gnuplot -e "fmt='svg'; out='timeline_step_07.svg.tmp'; title_a='06 warp_specialize: 77.1 µs; the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; num_a=6; title_b='07 exp2: 78.6 µs; the last 29.4 µs (37% of the launch) ran with fewer than 90% of SMs busy'; num_b=7; data='timeline_step_07.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_07.svg.tmp timeline_step_07.svg
gnuplot -e "fmt='png'; out='timeline_step_08.png.tmp'; title_a='07 exp2: 78.6 µs; the last 29.4 µs (37% of the launch) ran with fewer than 90% of SMs busy'; num_a=7; title_b='08 const_strides: 76.0 µs; the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; num_b=8; data='timeline_step_08.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_08.png.tmp timeline_step_08.png
gnuplot -e "fmt='svg'; out='timeline_step_08.svg.tmp'; title_a='07 exp2: 78.6 µs; the last 29.4 µs (37% of the launch) ran with fewer than 90% of SMs busy'; num_a=7; title_b='08 const_strides: 76.0 µs; the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; num_b=8; data='timeline_step_08.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_08.svg.tmp timeline_step_08.svg
gnuplot -e "fmt='png'; out='timeline_step_09.png.tmp'; title_a='08 const_strides: 76.0 µs; the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; num_a=8; title_b='09 big_tile: 55.6 µs; the last 26.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; num_b=9; data='timeline_step_09.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_09.png.tmp timeline_step_09.png
gnuplot -e "fmt='svg'; out='timeline_step_09.svg.tmp'; title_a='08 const_strides: 76.0 µs; the last 26.1 µs (34% of the launch) ran with fewer than 90% of SMs busy'; num_a=8; title_b='09 big_tile: 55.6 µs; the last 26.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; num_b=9; data='timeline_step_09.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_09.svg.tmp timeline_step_09.svg
gnuplot -e "fmt='png'; out='timeline_step_10.png.tmp'; title_a='09 big_tile: 55.6 µs; the last 26.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; num_a=9; title_b='10 tma: 53.0 µs; the last 25.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; num_b=10; data='timeline_step_10.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_10.png.tmp timeline_step_10.png
gnuplot -e "fmt='svg'; out='timeline_step_10.svg.tmp'; title_a='09 big_tile: 55.6 µs; the last 26.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; num_a=9; title_b='10 tma: 53.0 µs; the last 25.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; num_b=10; data='timeline_step_10.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_10.svg.tmp timeline_step_10.svg
gnuplot -e "fmt='png'; out='timeline_step_11.png.tmp'; title_a='10 tma: 53.0 µs; the last 25.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; num_a=10; title_b='11 wgmma_qk: 45.8 µs; the last 20.7 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_b=11; data='timeline_step_11.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_11.png.tmp timeline_step_11.png
gnuplot -e "fmt='svg'; out='timeline_step_11.svg.tmp'; title_a='10 tma: 53.0 µs; the last 25.6 µs (48% of the launch) ran with fewer than 90% of SMs busy'; num_a=10; title_b='11 wgmma_qk: 45.8 µs; the last 20.7 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_b=11; data='timeline_step_11.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_11.svg.tmp timeline_step_11.svg
gnuplot -e "fmt='png'; out='timeline_step_12.png.tmp'; title_a='11 wgmma_qk: 45.8 µs; the last 20.7 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_a=11; title_b='12 wgmma_pv: 37.4 µs; the last 16.6 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_b=12; data='timeline_step_12.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_12.png.tmp timeline_step_12.png
gnuplot -e "fmt='svg'; out='timeline_step_12.svg.tmp'; title_a='11 wgmma_qk: 45.8 µs; the last 20.7 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_a=11; title_b='12 wgmma_pv: 37.4 µs; the last 16.6 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_b=12; data='timeline_step_12.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_12.svg.tmp timeline_step_12.svg
gnuplot -e "fmt='png'; out='timeline_step_13.png.tmp'; title_a='12 wgmma_pv: 37.4 µs; the last 16.6 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_a=12; title_b='13 warpgroups: 38.7 µs; the last 17.4 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_b=13; data='timeline_step_13.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_13.png.tmp timeline_step_13.png
gnuplot -e "fmt='svg'; out='timeline_step_13.svg.tmp'; title_a='12 wgmma_pv: 37.4 µs; the last 16.6 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_a=12; title_b='13 warpgroups: 38.7 µs; the last 17.4 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_b=13; data='timeline_step_13.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_13.svg.tmp timeline_step_13.svg
gnuplot -e "fmt='png'; out='timeline_step_14.png.tmp'; title_a='13 warpgroups: 38.7 µs; the last 17.4 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_a=13; title_b='14 pingpong: 38.7 µs; the last 17.7 µs (46% of the launch) ran with fewer than 90% of SMs busy'; num_b=14; data='timeline_step_14.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_14.png.tmp timeline_step_14.png
gnuplot -e "fmt='svg'; out='timeline_step_14.svg.tmp'; title_a='13 warpgroups: 38.7 µs; the last 17.4 µs (45% of the launch) ran with fewer than 90% of SMs busy'; num_a=13; title_b='14 pingpong: 38.7 µs; the last 17.7 µs (46% of the launch) ran with fewer than 90% of SMs busy'; num_b=14; data='timeline_step_14.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_14.svg.tmp timeline_step_14.svg
gnuplot -e "fmt='png'; out='timeline_step_15.png.tmp'; title_a='14 pingpong: 38.7 µs; the last 17.7 µs (46% of the launch) ran with fewer than 90% of SMs busy'; num_a=14; title_b='15 overlap: 35.3 µs; the last 15.4 µs (43% of the launch) ran with fewer than 90% of SMs busy'; num_b=15; data='timeline_step_15.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_15.png.tmp timeline_step_15.png
gnuplot -e "fmt='svg'; out='timeline_step_15.svg.tmp'; title_a='14 pingpong: 38.7 µs; the last 17.7 µs (46% of the launch) ran with fewer than 90% of SMs busy'; num_a=14; title_b='15 overlap: 35.3 µs; the last 15.4 µs (43% of the launch) ran with fewer than 90% of SMs busy'; num_b=15; data='timeline_step_15.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_15.svg.tmp timeline_step_15.svg
gnuplot -e "fmt='png'; out='timeline_step_16.png.tmp'; title_a='15 overlap: 35.3 µs; the last 15.4 µs (43% of the launch) ran with fewer than 90% of SMs busy'; num_a=15; title_b='16 persistent: 25.6 µs; the last 2.8 µs (11% of the launch) ran with fewer than 90% of SMs busy'; num_b=16; data='timeline_step_16.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_16.png.tmp timeline_step_16.png
gnuplot -e "fmt='svg'; out='timeline_step_16.svg.tmp'; title_a='15 overlap: 35.3 µs; the last 15.4 µs (43% of the launch) ran with fewer than 90% of SMs busy'; num_a=15; title_b='16 persistent: 25.6 µs; the last 2.8 µs (11% of the launch) ran with fewer than 90% of SMs busy'; num_b=16; data='timeline_step_16.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_16.svg.tmp timeline_step_16.svg
gnuplot -e "fmt='png'; out='timeline_step_17.png.tmp'; title_a='16 persistent: 25.6 µs; the last 2.8 µs (11% of the launch) ran with fewer than 90% of SMs busy'; num_a=16; title_b='17 d64_tiles: 25.6 µs; the last 3.3 µs (13% of the launch) ran with fewer than 90% of SMs busy'; num_b=17; data='timeline_step_17.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_17.png.tmp timeline_step_17.png
gnuplot -e "fmt='svg'; out='timeline_step_17.svg.tmp'; title_a='16 persistent: 25.6 µs; the last 2.8 µs (11% of the launch) ran with fewer than 90% of SMs busy'; num_a=16; title_b='17 d64_tiles: 25.6 µs; the last 3.3 µs (13% of the launch) ran with fewer than 90% of SMs busy'; num_b=17; data='timeline_step_17.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_17.svg.tmp timeline_step_17.svg
gnuplot -e "fmt='png'; out='timeline_step_18.png.tmp'; title_a='17 d64_tiles: 25.6 µs; the last 3.3 µs (13% of the launch) ran with fewer than 90% of SMs busy'; num_a=17; title_b='18 l2_schedule: 24.8 µs; the last 2.3 µs (9% of the launch) ran with fewer than 90% of SMs busy'; num_b=18; data='timeline_step_18.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_18.png.tmp timeline_step_18.png
gnuplot -e "fmt='svg'; out='timeline_step_18.svg.tmp'; title_a='17 d64_tiles: 25.6 µs; the last 3.3 µs (13% of the launch) ran with fewer than 90% of SMs busy'; num_a=17; title_b='18 l2_schedule: 24.8 µs; the last 2.3 µs (9% of the launch) ran with fewer than 90% of SMs busy'; num_b=18; data='timeline_step_18.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_18.svg.tmp timeline_step_18.svg
gnuplot -e "fmt='png'; out='timeline_step_19.png.tmp'; title_a='18 l2_schedule: 24.8 µs; the last 2.3 µs (9% of the launch) ran with fewer than 90% of SMs busy'; num_a=18; title_b='19 lean_issue: 23.8 µs; the last 2.3 µs (10% of the launch) ran with fewer than 90% of SMs busy'; num_b=19; data='timeline_step_19.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_19.png.tmp timeline_step_19.png
gnuplot -e "fmt='svg'; out='timeline_step_19.svg.tmp'; title_a='18 l2_schedule: 24.8 µs; the last 2.3 µs (9% of the launch) ran with fewer than 90% of SMs busy'; num_a=18; title_b='19 lean_issue: 23.8 µs; the last 2.3 µs (10% of the launch) ran with fewer than 90% of SMs busy'; num_b=19; data='timeline_step_19.dat'; subtitle='NVIDIA H200, B=2 N=1024 Hq=16 Hkv=8 D=128 causal 32x32, cold'; run_id='20261201-1800-h200'" timeline_step.gp
mv timeline_step_19.svg.tmp timeline_step_19.svg
