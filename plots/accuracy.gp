# Speed against error: each variant's useful TFLOP/s against the RMSE of its
# output (both log scale), one colour and point type per series (an element
# type and a distribution of the inputs: series_1 .. series_<nseries>, the
# first column of the data). Each point carries its step's number or its
# peer's name (column 5) where reports/chart_layout.c placed it (columns 6,
# 7: its left side and middle), clear of every other, and a leader line
# joins the marker to the label's near side (column 8).
load 'common.gp'
set label 1 heading('Speed against error') at screen 0.5, screen 0.975 center
set tmargin heading_rows + 2
set xlabel 'RMSE of O against the double-precision reference (log scale)'
set ylabel 'TFLOP/s (useful, log scale)'
set logscale xy
set xtics norotate
set grid xtics ytics mxtics mytics lc rgb '#eeeeee'
set key outside right top vertical
series_colors = '#0077BB #EE7733 #009988 #CC3311'
series_points = '7 5 6 4'
plot for [s=1:nseries] data using ($1 == s - 1 ? $3 : NaN):4:($8 - $3):($7 - $4) with vectors nohead lw 0.8 \
         lc rgb word(series_colors, s) notitle, \
     for [s=1:nseries] data using ($1 == s - 1 ? $3 : NaN):4 with points ps 1.6 \
         lc rgb word(series_colors, s) pt int(word(series_points, s)) title value(sprintf('series_%d', s)), \
     for [s=1:nseries] data using ($1 == s - 1 ? $6 : NaN):7:5 with labels left tc rgb word(series_colors, s) notitle
