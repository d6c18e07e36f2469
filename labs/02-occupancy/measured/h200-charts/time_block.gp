# time_block.gp: chart 'time_block' of warplab run labs/02-occupancy/measured/h200-charts (written by warplab's plots/plot.c).
# Data: time_block.dat. Redraw with `gnuplot time_block.gp` in this folder.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 900,640 font "Sans,12" noenhanced background rgb "white"
} else {
  set terminal png size 900,640 font "Sans,12" noenhanced background rgb "white"
}
set output "time_block.png"
set datafile separator "\t"
set datafile missing "?"
fmt(v) = (v != v) ? "" : (abs(v) >= 1e6 ? sprintf("%.3gM", v/1e6) : (abs(v) >= 1e4 ? sprintf("%.3gk", v/1e3) : (abs(v) >= 1e3 || v == int(v) ? sprintf("%.0f", v) : sprintf("%.3g", v))))
set border 3 lw 1 lc rgb "#555555"
set tics nomirror out scale 0.6
set grid ytics lt 1 lw 1 lc rgb "#E3E3E3"
set xrange [-0.60:7.60]
set yrange [0:1485.68]
set ylabel "microseconds" offset 0.5,0
set xtics ("32" 0, "64" 1, "96" 2, "128" 3, "256 (yours)" 4, "512" 5, "768" 6, "1024" 7)
set xtics rotate by 35 right
set object rect from 3.50, graph 0 to 4.50, graph 1 behind fc rgb "#FFE9A8" fs solid 1.0 noborder
set label "on the GPU: NVIDIA H200 (sm_90, 132 SMs), CUDA driver 13.0  |  problem n=69206016" at graph 0.5, graph 1 offset 0,1.00 center font ",11" tc rgb "#555555"
set label "Kernel time, by block size (labels: BLOCK)" at graph 0.5, graph 1 offset 0,2.69 center font "Sans Bold,16"
set tmargin 4.3
set key outside below center horizontal Left reverse samplen 1.5 spacing 1.3 width 1 font ",11"
set style fill solid 0.92 border lc rgb "#303030"
plot "time_block.dat" using ($0+0.0000):2:(0.6880) with boxes lc rgb "#3A6EA5" title "time (measured): gpu__time_duration.sum", \
     "" using ($0+0.0000):2:(fmt($2)) with labels offset 0,0.7 font ",10" notitle, \
     keyentry with boxes fc rgb "#FFE9A8" fs solid 1.0 noborder title "(yours): the kernel file's own choice"
set terminal svg size 900,640 dynamic font "Sans,12" noenhanced background rgb "white"
set output "time_block.svg"
replot
unset output
