# fma.gp: chart 'fma' of warplab run labs/03-latency-hiding/measured/fma-charts (written by warplab's plots/plot.c).
# Data: fma.dat. Redraw with `gnuplot fma.gp` in this folder.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1200,640 font "Sans,12" noenhanced background rgb "white"
} else {
  set terminal png size 1200,640 font "Sans,12" noenhanced background rgb "white"
}
set output "fma.png"
set datafile separator "\t"
set datafile missing "?"
fmt(v) = (v != v) ? "" : (abs(v) >= 1e6 ? sprintf("%.3gM", v/1e6) : (abs(v) >= 1e4 ? sprintf("%.3gk", v/1e3) : (abs(v) >= 1e3 || v == int(v) ? sprintf("%.0f", v) : sprintf("%.3g", v))))
set border 3 lw 1 lc rgb "#555555"
set tics nomirror out scale 0.6
set grid xtics ytics lt 1 lw 1 lc rgb "#E3E3E3"
set logscale x 2
set xrange [0.840896:38.0546]
set xtics ("1" 1, "2" 2, "4" 4, "8" 8, "16" 16, "32" 32)
set yrange [0:140.8]
set ylabel "FMAs completed per cycle per SM (of 128 lanes)" offset 0.5,0
set xlabel "warps per SM (one block; log scale)"
set label "with fp32_lanes = 32, fma_cycles = 4 (h200.conf)" at screen 0.5, graph 1 offset 0,1.00 center font ",10" tc rgb "#333333"
set label "prediction (Little's law) = fp32_lanes * min(min(WARPS, 4), WARPS * ILP / fma_cycles)" at screen 0.5, graph 1 offset 0,2.35 center font ",10" tc rgb "#333333"
set label "fma.cu on warplab emu (profile h200), and an H200 (bench/timing/calibration/h200, less a launch of 3.2 us)" at screen 0.5, graph 1 offset 0,3.70 center font ",11" tc rgb "#555555"
set label "FMAs per cycle per SM against warps, with ILP independent FMA chains per thread" at screen 0.5, graph 1 offset 0,5.39 center font "Sans Bold,16"
set tmargin 7.0
set key outside right top vertical Left reverse samplen 3 spacing 1.4 width -5 font ",11"
plot "fma.dat" index 0 using 2:(column(3)) with linespoints lw 2 pt 7 ps 1.4 lc rgb "#3A6EA5" title "emulator, ILP 1 (modelled)", \
     "fma.dat" index 0 using 2:(column(4)) with linespoints lw 2 pt 7 ps 1.4 lc rgb "#E07B39" title "H200, ILP 1 (measured)", \
     "fma.dat" index 2 using 1:2 with lines dt (10,6) lw 2.5 lc rgb "#222222" title "prediction (Little's law), ILP 1", \
     "fma.dat" index 1 using 2:(column(3)) with linespoints lw 2 pt 5 ps 1.4 lc rgb "#3A6EA5" title "emulator, ILP 4 (modelled)", \
     "fma.dat" index 1 using 2:(column(4)) with linespoints lw 2 pt 5 ps 1.4 lc rgb "#E07B39" title "H200, ILP 4 (measured)", \
     "fma.dat" index 3 using 1:2 with lines dt (4,5) lw 2.5 lc rgb "#222222" title "prediction (Little's law), ILP 4"
set terminal svg size 1200,640 dynamic font "Sans,12" noenhanced background rgb "white"
set output "fma.svg"
replot
unset output
