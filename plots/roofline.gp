# Roofline under the ceilings this run measured: peak_tflops (tensor-core
# product, TFLOP/s) and bw_tbps (device copy, TB/s). Points: useful FLOPs
# over measured DRAM bytes against useful TFLOP/s, one colour and point type
# per variant (vnums, vslugs) named in the key with its values (vai,
# vtflops): variants at nearly the same point stay apart there. Points shrink
# from the first variant to the last, so that coinciding ones show as rings,
# and each carries its number, offset by its place in the list so that the
# numbers of coinciding points stand side by side. xmin, xmax: the x range.
load 'common.gp'
set label 1 heading('Roofline (measured ceilings)') at screen 0.5, screen 0.975 center
set tmargin heading_rows + 2
set xlabel 'arithmetic intensity (useful FLOP per DRAM byte, log scale)'
set ylabel 'TFLOP/s (useful, log scale)'
set logscale xy
set xrange [xmin:xmax]
set yrange [*:peak_tflops * 2]
set xtics norotate
set bmargin
set grid xtics ytics mxtics mytics lc rgb '#eeeeee'
set samples 500
set key outside right top vertical
roof(x) = x * bw_tbps < peak_tflops ? x * bw_tbps : peak_tflops
nvar = words(vnums)
plot roof(x) with lines lw 2 lc rgb 'black' \
         title sprintf('ceiling: %.0f TFLOP/s, %.2f TB/s', peak_tflops, bw_tbps), \
     for [i=1:nvar] data every ::i - 1::i - 1 using 3:4 with points ps 1.2 + 1.4 * (nvar - i) / nvar \
         lc rgb vcolor(word(vnums, i)) pt vpoint(word(vnums, i)) \
         title sprintf('%02d %s: %.0f FLOP/B, %.1f TFLOP/s', int(word(vnums, i)), word(vslugs, i), \
               real(word(vai, i)), real(word(vtflops, i))), \
     for [i=1:nvar] data every ::i - 1::i - 1 using 3:4:(sprintf('%02d', int(word(vnums, i)))) with labels \
         left offset char 1.5 + 2.5 * ((i - 1) % 3), char 0.6 * ((i - 1) % 3) - 0.6 tc rgb vcolor(word(vnums, i)) notitle
