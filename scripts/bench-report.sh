#!/bin/bash
# bench-report.sh CSV OUTDIR ACCEL RUNS "DESCRIPTION"
# Turn make bench's CSV (kernel,patches,run,workload,metric,value) into a
# table per workload, in the postings' format (metric, base, series,
# delta %) with min/median/max over the runs, and a PNG chart per
# workload (gnuplot): each metric's series median relative to base.
set -eu
csv=$1 out=$2 accel=$3 runs=$4 desc=$5

# Derived per run: swap_ra_hit_pct = swap_ra_hit * 100 / swap_ra, and
# dropbehind_pct = swap_dropbehind * 100 / zswpwb (written back and freed).
derived=$out/derived.csv
gawk -F, 'NR > 1 && $5 ~ /^(swap_ra|swap_ra_hit|swap_dropbehind|zswpwb)$/ { v[$1 "," $2 "," $3 "," $4][$5] = $6 }
	END { for (k in v) {
		if (v[k]["swap_ra"] > 0)
			printf "%s,swap_ra_hit_pct,%.1f\n", k, v[k]["swap_ra_hit"] * 100 / v[k]["swap_ra"]
		if (v[k]["zswpwb"] > 0 && ("swap_dropbehind" in v[k]))
			printf "%s,dropbehind_pct,%.3f\n", k, v[k]["swap_dropbehind"] * 100 / v[k]["zswpwb"]
	} }' "$csv" >"$derived"
csv_all=$out/all.csv
cat "$csv" "$derived" >"$csv_all"

# Per kernel, workload and metric: min, median, max (gawk for asort).
stats=$out/stats.csv
gawk -F, 'NR > 1 && $5 != "status" { v[$1 "," $4 "," $5][++n[$1 "," $4 "," $5]] = $6
		if (!(($4 "," $5) in seen)) { seen[$4 "," $5] = ++order; }
		ord[$4 "," $5] = seen[$4 "," $5] }
	END {
		for (k in v) {
			m = asort(v[k], s); med = (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
			split(k, f, ","); printf "%s,%s,%s,%d,%s,%s,%s\n", f[1], f[2], f[3], ord[f[2] "," f[3]], s[1], med, s[m]
		}
	}' "$csv_all" | sort -t, -k2,2 -k4,4n >"$stats"

for w in $(cut -d, -f2 "$stats" | sort -u); do
	txt=$out/$w.txt
	{
		echo "workload $w: $desc"
		echo "runs: $runs per kernel, alternating; accel: $accel$([ "$accel" = tcg ] && echo ' (software emulation: times are noisy, counters carry the claims)')"
		echo
		echo "noise: '*' when each side's median lies outside the other side's [min..max] (the"
		echo "difference is beyond the spread of both), '~' when it does not (within noise),"
		echo "'?' with fewer than 3 runs a side (no spread to judge by)."
		echo
		printf '  %-26s %30s %30s %9s %s\n' metric "base median [min..max]" "series median [min..max]" "delta" "noise"
		gawk -F, -v w="$w" -v runs="$runs" '$2 == w { k = $3; o[k] = $4; mn[$1, k] = $5; md[$1, k] = $6; mx[$1, k] = $7 }
			function cell(x, k) { if (!((x, k) in mn)) return "-"	# not counted by that kernel
				return sprintf("%s [%s..%s]", fmt(md[x, k]), fmt(mn[x, k]), fmt(mx[x, k])) }
			function noise(k) { if (!(("base", k) in mn) || !(("series", k) in mn)) return ""
				if (runs < 3) return "?"
				if (md["series", k] == md["base", k]) return "~"
				out_s = md["series", k] < mn["base", k] || md["series", k] > mx["base", k]
				out_b = md["base", k] < mn["series", k] || md["base", k] > mx["series", k]
				return (out_s && out_b) ? "*" : "~" }
			function fmt(v) { return (v == int(v)) ? sprintf("%d", v) : sprintf("%.3f", v) }
			END {
				n = 0; for (k in o) keys[++n] = k
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
					if (o[keys[j]] < o[keys[i]]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
				for (i = 1; i <= n; i++) {
					k = keys[i]; b = md["base", k]; s = md["series", k]
					d = (b == 0) ? ((s == 0) ? "0%" : "n/a") : sprintf("%+.1f%%", (s - b) * 100 / b)
					printf "  %-26s %30s %30s %9s %s\n", k, cell("base", k), cell("series", k), d, noise(k)
				}
			}' "$stats"
	} >"$txt"
	cat "$txt"
	echo

	# Chart: series median as % of base median, per metric with a
	# non-zero base; whiskers from the series min/max.
	dat=$out/$w.dat
	gawk -F, -v w="$w" '$2 == w { k = $3; o[k] = $4; md[$1, k] = $6; mn[$1, k] = $5; mx[$1, k] = $7 }
		END { for (k in o) if (md["base", k] != 0)
			printf "%d %s %.2f %.2f %.2f\n", o[k], k, md["series", k] * 100 / md["base", k],
				mn["series", k] * 100 / md["base", k], mx["series", k] * 100 / md["base", k] }' \
		"$stats" | sort -n >"$dat"
	if command -v gnuplot >/dev/null 2>&1 && [ -s "$dat" ]; then
		gnuplot <<-GP
		set terminal pngcairo size 1200,600 noenhanced
		set output "$out/$w.png"
		set title "$w: series relative to base (base median = 100), $runs runs, $accel"
		set style fill solid 0.6
		set boxwidth 0.6
		set ylabel "% of base median"
		set xtics rotate by -45
		set grid ytics
		set yrange [0:*]
		set bmargin 9
		set arrow from graph 0, first 100 to graph 1, first 100 nohead dt 2
		plot "$dat" using 0:3:xtic(2) with boxes title "series median", \
		     "" using 0:3:4:5 with yerrorbars lc rgb "black" pt -1 title "series min..max"
		GP
	fi
done
echo "results: $out (results.csv, stats.csv, <workload>.txt, <workload>.png)"
