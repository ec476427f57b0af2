# A step against its predecessor over one launch each (timeline.csv), x in
# µs from each launch's start: a shorter tail or a longer launch shows as
# one curve ending before the other. Above the share of SMs busy, below the
# tensor pipes. Block 0 of data is the predecessor's (num_a, title_a), block
# 1 the step's (num_b, title_b); the titles give each launch's length and tail.
load 'common.gp'
set multiplot title heading('One launch of the step and of its predecessor over time')
set xtics norotate
set autoscale xfix
set lmargin at screen 0.08
set rmargin at screen 0.97
set tmargin at screen 0.84
set bmargin at screen 0.50
set format x ''
set ylabel 'SMs busy (sm_active_pct, %)'
set yrange [0:105]
set key off
plot data index 0 using 1:5 with lines lw 2.5 dt 2 lc rgb vcolor(num_a), \
     data index 1 using 1:5 with lines lw 2.5 lc rgb vcolor(num_b)
set tmargin at screen 0.46
set bmargin at screen 0.20
set format x '%g'
set xlabel 'time from the launch''s start (µs)'
set ylabel 'tensor pipes (tensor_pct, %)'
set yrange [0:*]
set key at screen 0.5, screen 0.09 center vertical Left reverse
plot data index 0 using 1:2 with lines lw 2.5 dt 2 lc rgb vcolor(num_a) title title_a, \
     data index 1 using 1:2 with lines lw 2.5 lc rgb vcolor(num_b) title title_b
unset multiplot
