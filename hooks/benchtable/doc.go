// Command benchtable turns `go test -bench` output into the table of the
// README's Performance section (`make bench` runs it): every benchmark
// that reports a median, as a multiple of an empty Go program: the median
// of the pair-by-pair ratios when the benchmark reports them (x-empty),
// else its median over the "empty-go" of its group.
// Absolute times on shared machines vary threefold between days; the
// multiples are what the README quotes.
package main
