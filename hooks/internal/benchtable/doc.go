// Command benchtable turns `go test -bench` output into the results file
// of `make bench`, docs/benchmarks.md: one table of every benchmark that
// reports a median, as a multiple of an empty Go program (the median of
// the pair-by-pair ratios when the benchmark reports them, x-empty, else
// its median over the "empty-go" of its group), headed by the date, the
// machine and the commit measured. Absolute times on shared machines vary
// threefold between days; the multiples are what the file is for.
package main
