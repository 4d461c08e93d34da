// Package machine describes the machine a measurement ran on, for the
// results files that print figures (make bench's docs/benchmarks.md, the
// e2e timing tests' docs/clients-cost.md): the CPU model and count, the
// OS and architecture, and the load average, since absolute times on a
// shared machine vary with both.
package machine
