# Shared by every chart. Variables (gnuplot -e): fmt ('png' or 'svg'), out
# (the file to write), data (the .dat file), subtitle (device, configuration,
# run). render.sh in a run's plot folder gives them.
if (!exists("fmt")) fmt = 'png'
if (!exists("subtitle")) subtitle = ''
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
set xtics rotate by -35 left scale 0
set lmargin 12
set bmargin 8
set datafile missing 'NaN'
