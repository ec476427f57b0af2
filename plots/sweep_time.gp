# Time against N per variant (columns 2..nvar+1) and the PyTorch peers
# (columns nvar+2..ncols, external), log-log.
load 'common.gp'
set title sprintf("Kernel time against sequence length\n%s", subtitle)
set xlabel 'sequence length N (log scale)'
set ylabel 'time (µs, log scale)'
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
plot for [i=2:nvar + 1] data using 1:i:xtic(1) with linespoints lw 2 pt 7, \
     for [i=nvar + 2:ncols] data using 1:i with lines dt 2 lw 2
