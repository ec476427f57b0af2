# Shared by every chart. Variables (gnuplot -e): fmt ('png' or 'svg'), out
# (the file to write), data (the .dat file), subtitle (device and
# configuration; a long one goes on in subtitle_2, subtitle_3, ...), run_id.
# render.sh in a run's plot folder gives them.
if (!exists("fmt")) fmt = 'png'
if (!exists("subtitle")) subtitle = ''
# heading_rows: the lines of the heading, title, subtitle and run.
heading_rows = 2
do for [k=2:9] {
    if (exists(sprintf('subtitle_%d', k))) {
        subtitle = subtitle . "\n" . value(sprintf('subtitle_%d', k))
        heading_rows = heading_rows + 1
    }
}
if (exists("run_id")) {
    subtitle = subtitle . "\nrun " . run_id
    heading_rows = heading_rows + 1
}
# A chart with its key on the right centres its heading on the page, not on
# the narrower plot: set label 1 heading('...') at screen 0.5, screen 0.975 center
# and set tmargin heading_rows + 2.
heading(t) = sprintf("%s\n%s", t, subtitle)
# The canvas and the fonts are those of reports/charts.h's model, which
# places the labels of the charts.
if (fmt eq 'svg') {
    set terminal svg size 1100,650 dynamic noenhanced font 'Sans,12' background rgb 'white'
} else {
    set terminal pngcairo size 1100,650 noenhanced font 'Sans,11' background rgb 'white'
}
set output out
set grid ytics lc rgb '#dddddd' lt 1
set border 3
set tics nomirror
set key outside below center horizontal box opaque
set offsets graph 0.02, graph 0.02, graph 0.08, 0
set style fill solid 0.85 border -1
set lmargin 12
set datafile missing 'NaN'
# The frame reports/chart_layout.c computed, where it placed the chart's labels:
# margins in character cells, the axes' ranges (offsets apply to autoscaled
# ranges only), the x labels' angle.
if (!exists("xtic_angle")) xtic_angle = 35
set xtics rotate by -xtic_angle left scale 0
if (exists("frame_l")) {
    set lmargin frame_l
    set rmargin frame_r
    set xrange [frame_xlo:frame_xhi]
}
if (exists("frame_ylo")) set yrange [frame_ylo:frame_yhi]
# One colour, point type and dash pattern per variant number, the same in
# every chart of a run: Paul Tol's colour-blind-safe muted and vibrant sets,
# 12 colours, neighbouring steps far apart; 12 point types, filled and open;
# five dash patterns, so that lines differ without colour. The PyTorch peers
# are greys.
variant_colors = '#332288 #EE7733 #44AA99 #DDAA33 #0077BB #999933 #AA4499 #117733 #CC3311 #88CCEE #882255 #EE3377'
variant_points = '7 5 9 11 13 15 6 4 8 10 12 14'
vcolor(n) = word(variant_colors, int(n) % words(variant_colors) + 1)
vpoint(n) = int(word(variant_points, int(n) % words(variant_points) + 1))
vdash(n) = int(n) % 5 + 1
peer_colors = '#000000 #555555 #888888 #aaaaaa #cccccc'
