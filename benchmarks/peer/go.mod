module h2bench/benchmarks/peer

go 1.24
