# One launch of one variant over time (timeline.csv), x in µs from the
# launch's start at the middle of each sample (dt µs long). Above, in % of
# peak: the share of SMs busy, the tensor pipes, instruction issue and the
# warps active; below, DRAM reads and writes in TB/s. label: the variant;
# tail_text: the launch's tail in words; tail_start (absent when there is no
# tail to mark): where the last stretch with fewer than 90% of SMs busy
# begins, the causal tail that a persistent scheduler shortens.
load 'common.gp'
set multiplot title heading(sprintf('%s: one launch over time', label))
set xtics norotate
set autoscale xfix
set lmargin at screen 0.08
set rmargin at screen 0.72
set key outside right top vertical
tail_note = 'Tail: ' . tail_text
if (exists("tail_start")) {
    set arrow 1 from tail_start, graph 0 to tail_start, graph 1 nohead dt 3 lw 1.5 lc rgb 'black'
    tail_note = tail_note . ' (from the dotted line on)'
}
set label 2 tail_note at screen 0.08, screen 0.03 left   # once: drawn with the first panel
set tmargin at screen 0.84
set bmargin at screen 0.44
set format x ''
set ylabel '% (of peak, of SMs)'
set yrange [0:105]
plot data using 1:5 with lines lw 2.5 lc rgb '#CC3311' title 'SMs busy (sm_active_pct)', \
     data using 1:2 with lines lw 2 lc rgb '#0077BB' title 'tensor pipes (tensor_pct)', \
     data using 1:3 with lines lw 1.5 lc rgb '#009988' title 'instruction issue (issue_pct)', \
     data using 1:4 with lines lw 1.5 dt 2 lc rgb '#EE7733' title 'warps active (warps_active_pct)'
unset label 2
set tmargin at screen 0.38
set bmargin at screen 0.15
set format x '%g'
set xlabel sprintf('time from the launch''s start (µs; samples of %.1f µs)', dt)
set ylabel 'DRAM (TB/s)'
set yrange [0:*]
plot data using 1:($6 + $7) with lines lw 2 lc rgb '#332288' title 'DRAM reads + writes', \
     data using 1:7 with lines lw 1.5 dt 2 lc rgb '#AA4499' title 'of which writes'
unset multiplot
