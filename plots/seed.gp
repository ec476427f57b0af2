# Our time change per step beside document 000's for the same step (post 000
# of the series named in README.md; its GPU, Triton), computed from the times
# it printed. Negative: faster. Bars are labelled with their
# values (a flat step has no visible bar).
load 'common.gp'
set title sprintf("Time change per step: this run against document 000\n%s", subtitle)
set ylabel 'time change against the previous step (%)'
set style data histograms
set style histogram clustered gap 1
set boxwidth 0.9 relative
set xzeroaxis lt -1
# Labels sit just beyond each bar's end, upright text read bottom to top so
# that the two labels of a cluster never overlap each other or the bars; bar
# centres of a two-bar cluster with gap 1 are one third of a unit apart.
max(a, b, c) = a > b ? (a > c ? a : c) : (b > c ? b : c)
min(a, b, c) = a < b ? (a < c ? a : c) : (b < c ? b : c)
# stats keeps the points in the x range (the frame's): x is the row.
stats data using 0:3 nooutput name 'OURS'
stats data using 0:4 nooutput name 'DOC'
pad = 0.02 * (max(OURS_max_y, DOC_max_y, 0) - min(OURS_min_y, DOC_min_y, 0))
end(y) = y + (y < 0 ? -pad : pad)
# A label on the other side is empty rather than undefined, so that a run
# whose steps all go one way draws no series without points (a warning).
up(y) = y >= 0 ? sprintf('%+.1f%%', y) : ''
down(y) = y < 0 ? sprintf('%+.1f%%', y) : ''
set offsets graph 0.02, graph 0.02, graph 0.16, graph 0.16
plot data using 3:xtic(2) lc rgb '#4477aa' title 'this run', \
     data using 4 lc rgb '#bbbbbb' title 'document 000: the Triton log, post 000 (its GPU, unnamed)', \
     data using ($0 - 1.0 / 6):(end($3)):(up($3)) with labels rotate by 90 left notitle, \
     data using ($0 - 1.0 / 6):(end($3)):(down($3)) with labels rotate by 90 right notitle, \
     data using ($0 + 1.0 / 6):(end($4)):(up($4)) with labels rotate by 90 left notitle, \
     data using ($0 + 1.0 / 6):(end($4)):(down($4)) with labels rotate by 90 right notitle
