# sectors: drawn by warplab from sectors.dat; rerun with: gnuplot sectors.gp
set terminal pngcairo size 1100,560 font "Sans,11" noenhanced
set output 'sectors.png'
set title "Global load sectors per request\nmeasured on NVIDIA H200 (sm_90, 132 SMs), CUDA driver 13.0, problem nx=16384 ny=16384" font ",13"
set datafile separator "\t"
set datafile missing "?"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border rgb "#333333"
set boxwidth 0.9
set grid ytics lc rgb "#dddddd"
set border 3
set xtics nomirror rotate by -30 offset -1,0
set ytics nomirror
set ylabel "sectors per request (4 is ideal for 4-byte loads)"
set key top left Left reverse samplen 2
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
plot 'sectors.dat' using 2:xtic(1) title "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio (measured)" lc rgb "#3b6fb6", \
     'sectors.dat' using ($0 + 0.0000):2:(sprintf("%.3g", $2)) with labels offset 0,0.6 font ",9" notitle
set terminal svg size 1100,560 dynamic font "Sans,11" noenhanced
set output 'sectors.svg'
replot
unset output
