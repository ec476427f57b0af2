# Peak device memory of each variant's buffers against N (columns
# 2..nvar+1; vnums: their variant numbers), log-log.
load 'common.gp'
set label 1 heading('Peak device memory against sequence length') at screen 0.5, screen 0.975 center
set tmargin heading_rows + 2
set xlabel 'sequence length N (log scale)'
set ylabel 'peak memory (MB, log scale)'
set logscale xy
set xtics norotate
set bmargin
set key autotitle columnheader
set autoscale xfix
set autoscale yfix
set ytics 2
set format y "%g"
set key outside right top vertical
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
# Variants with the same buffers have the same memory: points shrink from the
# first variant drawn to the last, so that coinciding ones stay visible as
# rings around each other.
plot for [i=2:nvar + 1] data using 1:i:xtic(1) with linespoints dt vdash(word(vnums, i - 1)) lw 2 ps 1.0 + 0.25 * (nvar + 1 - i) \
         lc rgb vcolor(word(vnums, i - 1)) pt vpoint(word(vnums, i - 1))
