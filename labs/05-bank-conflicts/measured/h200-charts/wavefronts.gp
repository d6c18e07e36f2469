# wavefronts.gp: chart 'wavefronts' of warplab run labs/05-bank-conflicts/measured/h200-charts (written by warplab's plots/plot.c).
# Data: wavefronts.dat. Redraw with `gnuplot wavefronts.gp` in this folder.
if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
  set terminal pngcairo size 1324,640 font "Sans,12" noenhanced background rgb "white"
} else {
  set terminal png size 1324,640 font "Sans,12" noenhanced background rgb "white"
}
set output "wavefronts.png"
set datafile separator "\t"
set datafile missing "?"
fmt(v) = (v != v) ? "" : (abs(v) >= 1e6 ? sprintf("%.3gM", v/1e6) : (abs(v) >= 1e4 ? sprintf("%.3gk", v/1e3) : (abs(v) >= 1e3 || v == int(v) ? sprintf("%.0f", v) : sprintf("%.3g", v))))
set border 3 lw 1 lc rgb "#555555"
set tics nomirror out scale 0.6
set grid ytics lt 1 lw 1 lc rgb "#E3E3E3"
set xrange [-0.60:3.60]
set yrange [0:36.9571]
set ylabel "wavefronts per request (1 is conflict-free)" offset 0.5,0
set xtics ("0" 0, "1" 1, "2 (yours)" 2, "3" 3)
set object rect from 1.50, graph 0 to 2.50, graph 1 behind fc rgb "#FFE9A8" fs solid 1.0 noborder
set label "on the GPU: NVIDIA H200 (sm_90, 132 SMs), CUDA driver 13.0  |  problem width=8192 height=8192 shift=0" at graph 0.5, graph 1 offset 0,1.00 center font ",11" tc rgb "#555555"
set label "Shared-memory wavefronts per request, by variant (0 naive, 1 padded, 2 swizzled, 3 reconstituted)" at graph 0.5, graph 1 offset 0,2.69 center font "Sans Bold,16"
set tmargin 4.3
set key outside below center horizontal Left reverse samplen 1.5 spacing 1.3 width 1 font ",11"
set style fill solid 0.92 border lc rgb "#303030"
plot "wavefronts.dat" using ($0-0.2000):2:(0.3440) with boxes lc rgb "#3A6EA5" title "stores (a row of the tile) (measured): warplab__average_wavefronts_per_request_mem_shared_op_st.ratio", \
     "" using ($0-0.2000):2:(fmt($2)) with labels offset 0,0.7 font ",10" notitle, \
     "wavefronts.dat" using ($0+0.2000):3:(0.3440) with boxes lc rgb "#E07B39" title "loads (a column of the tile) (measured): warplab__average_wavefronts_per_request_mem_shared_op_ld.ratio", \
     "" using ($0+0.2000):3:(fmt($3)) with labels offset 0,0.7 font ",10" notitle, \
     keyentry with boxes fc rgb "#FFE9A8" fs solid 1.0 noborder title "(yours): the kernel file's own choice"
set terminal svg size 1324,640 dynamic font "Sans,12" noenhanced background rgb "white"
set output "wavefronts.svg"
replot
unset output
