# efficiency: drawn by warplab from efficiency.dat; rerun with: gnuplot efficiency.gp
set terminal pngcairo size 1100,560 font "Sans,11" noenhanced
set output 'efficiency.png'
set title "Global load efficiency\nmeasured on NVIDIA H200 (sm_90, 132 SMs), CUDA driver 13.0, problem nx=16384 ny=16384" font ",13"
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
set ylabel "% of fetched bytes used"
set key top left Left reverse samplen 2
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set label 11 "no data for gld_efficiency on this run" at graph 0.99, 0.92 right font ",9" textcolor rgb "#777777"
plot 'efficiency.dat' using 2:xtic(1) title "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct (measured)" lc rgb "#3b6fb6", \
     'efficiency.dat' using ($0 + 0.0000):2:(sprintf("%.3g", $2)) with labels offset 0,0.6 font ",9" notitle
set terminal svg size 1100,560 dynamic font "Sans,11" noenhanced
set output 'efficiency.svg'
replot
unset output
