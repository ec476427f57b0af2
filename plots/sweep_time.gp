# Time against N per variant (columns 2..nvar+1; vnums: their variant
# numbers) and the PyTorch peers (columns nvar+2..ncols, external), log-log.
load 'common.gp'
set label 1 heading('Kernel time against sequence length') at screen 0.5, screen 0.975 center
set tmargin heading_rows + 2
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
plot for [i=2:nvar + 1] data using 1:i:xtic(1) with linespoints dt vdash(word(vnums, i - 1)) lw 2 ps 1.2 \
         lc rgb vcolor(word(vnums, i - 1)) pt vpoint(word(vnums, i - 1)), \
     for [i=nvar + 2:ncols] data using 1:i with lines dt i - nvar lw 2 lc rgb word(peer_colors, i - nvar - 1)
