# Time against N: the fastest step of the chain at each N (column 2) and the
# peers the run measured (columns 3..ncols), log-log.
load 'common.gp'
set label 1 heading('The chain against the peers: time against sequence length') at screen 0.5, screen 0.975 center
set tmargin heading_rows + 2
set xlabel 'sequence length N (log scale)'
set ylabel 'time (µs, log scale)'
set logscale xy
set xtics norotate
set bmargin
set key autotitle columnheader
set autoscale xfix
set autoscale yfix
set format y "%g"
set key outside right top vertical
set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05
plot data using 1:2:xtic(1) with linespoints lw 3 ps 1.2 lc rgb word(variant_colors, 1) pt 7, \
     for [i=3:ncols] data using 1:i with linespoints dt 2 lw 2 ps 1 lc rgb word(peer_colors, i - 2) pt 4 + i
