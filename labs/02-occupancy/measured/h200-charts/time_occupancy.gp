# time_occupancy.gp: chart 'time_occupancy' of warplab run labs/02-occupancy/measured/h200-charts (written by warplab's plots/plot.c).
# Data: time_occupancy.dat. Redraw with `gnuplot time_occupancy.gp` in this folder.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1200,640 font "Sans,12" noenhanced background rgb "white"
} else {
  set terminal png size 1200,640 font "Sans,12" noenhanced background rgb "white"
}
set output "time_occupancy.png"
set datafile separator "\t"
set datafile missing "?"
fmt(v) = (v != v) ? "" : (abs(v) >= 1e6 ? sprintf("%.3gM", v/1e6) : (abs(v) >= 1e4 ? sprintf("%.3gk", v/1e3) : (abs(v) >= 1e3 || v == int(v) ? sprintf("%.0f", v) : sprintf("%.3g", v))))
set border 3 lw 1 lc rgb "#555555"
set tics nomirror out scale 0.6
set grid xtics ytics lt 1 lw 1 lc rgb "#E3E3E3"
set xrange [1.972:89.708]
set yrange [0:3092.71]
set ylabel "microseconds" offset 0.5,0
set xlabel "achieved occupancy (% of the SM's 64 warp slots)"
set label "on the GPU: NVIDIA H200 (sm_90, 132 SMs), CUDA driver 13.0  |  problem n=69206016" at screen 0.5, graph 1 offset 0,1.00 center font ",11" tc rgb "#555555"
set label "Kernel time against achieved occupancy" at screen 0.5, graph 1 offset 0,2.69 center font "Sans Bold,16"
set tmargin 4.3
set key outside right top vertical Left reverse samplen 3 spacing 1.4 width -5 font ",11"
plot "time_occupancy.dat" index 0 using 2:(column(3)) with linespoints lw 2 pt 7 ps 1.4 lc rgb "#3A6EA5" title "resident warps (measured)", \
     "time_occupancy.dat" index 1 using 2:(column(3)) with linespoints lw 2 pt 7 ps 1.4 lc rgb "#E07B39" title "block size (measured)", \
     "time_occupancy.dat" index 0 using 2:(strstrt(strcol(1), "(yours)") > 0 ? column(3) : NaN) with points pt 6 ps 3.2 lw 2 lc rgb "#000000" title "(yours): the kernel file's own choice", \
     "time_occupancy.dat" index 1 using 2:(strstrt(strcol(1), "(yours)") > 0 ? column(3) : NaN) with points pt 6 ps 3.2 lw 2 lc rgb "#000000" notitle
set terminal svg size 1200,640 dynamic font "Sans,12" noenhanced background rgb "white"
set output "time_occupancy.svg"
replot
unset output
