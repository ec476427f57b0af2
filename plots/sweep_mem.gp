# Peak device memory of each variant's buffers against N, log-log.
load 'common.gp'
set title sprintf("Peak device memory against sequence length\n%s", subtitle)
set xlabel 'sequence length N (log scale)'
set ylabel 'peak memory (MiB, log scale)'
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
plot for [i=2:nvar + 1] data using 1:i:xtic(1) with linespoints lw 2 pt 7
