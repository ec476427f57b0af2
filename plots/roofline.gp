# Roofline under the ceilings this run measured: peak_tflops (tensor-core
# product, TFLOP/s) and bw_tbps (device copy, TB/s). Points: useful FLOPs
# over measured DRAM bytes against useful TFLOP/s, labelled alternately above
# and below. xmin, xmax: the x range.
load 'common.gp'
set title sprintf("Roofline (measured ceilings)\n%s", subtitle)
set xlabel 'arithmetic intensity (useful FLOP per DRAM byte, log scale)'
set ylabel 'TFLOP/s (useful, log scale)'
set logscale xy
set xrange [xmin:xmax]
set yrange [*:peak_tflops * 2]
set xtics norotate
set bmargin
set grid xtics ytics mxtics mytics lc rgb '#eeeeee'
set samples 500
set key inside left top vertical
roof(x) = x * bw_tbps < peak_tflops ? x * bw_tbps : peak_tflops
plot roof(x) with lines lw 2 lc rgb 'black' \
         title sprintf('ceiling: %.0f TFLOP/s, %.2f TB/s', peak_tflops, bw_tbps), \
     data using 2:3 with points pt 7 ps 1.5 lc rgb '#cc3311' title 'variants', \
     data every 2::0 using 2:3:1 with labels left offset 1,0.5 font ',9' notitle, \
     data every 2::1 using 2:3:1 with labels left offset 1,-0.5 font ',9' notitle
