# Roofline under the ceilings this run measured: peak_tflops (tensor-core
# product, TFLOP/s) and bw_tbps (device copy, TB/s). Points: useful FLOPs
# over measured DRAM bytes against useful TFLOP/s, one colour and point type
# per variant (vnums, vslugs) named in the key with its values (vai,
# vtflops): variants at nearly the same point stay apart there. Points shrink
# from the first variant to the last, so that coinciding ones show as rings.
# Each carries its number (column 5) where reports/chart_layout.c placed it
# (columns 6, 7: its left side and middle), clear of every other, and a
# leader line joins the marker to the label's near side (column 8).
load 'common.gp'
set label 1 heading('Roofline (measured ceilings)') at screen 0.5, screen 0.975 center
set tmargin heading_rows + 2
set xlabel 'arithmetic intensity (useful FLOP per DRAM byte, log scale)'
set ylabel 'TFLOP/s (useful, log scale)'
set logscale xy
set xtics norotate
set bmargin
set grid xtics ytics mxtics mytics lc rgb '#eeeeee'
set samples 500
set key outside right top vertical
roof(x) = x * bw_tbps < peak_tflops ? x * bw_tbps : peak_tflops
nvar = words(vnums)
plot roof(x) with lines lw 2 lc rgb 'black' \
         title sprintf('ceiling: %.0f TFLOP/s, %.2f TB/s', peak_tflops, bw_tbps), \
     for [i=1:nvar] data every ::i - 1::i - 1 using 3:4:($8 - $3):($7 - $4) with vectors nohead lw 0.8 \
         lc rgb vcolor(word(vnums, i)) notitle, \
     for [i=1:nvar] data every ::i - 1::i - 1 using 3:4 with points ps 1.2 + 1.4 * (nvar - i) / nvar \
         lc rgb vcolor(word(vnums, i)) pt vpoint(word(vnums, i)) \
         title sprintf('%02d %s: %.0f FLOP/B, %.1f TFLOP/s', int(word(vnums, i)), word(vslugs, i), \
               real(word(vai, i)), real(word(vtflops, i))), \
     for [i=1:nvar] data every ::i - 1::i - 1 using 6:7:5 with labels left tc rgb vcolor(word(vnums, i)) notitle
