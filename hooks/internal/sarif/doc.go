// Package sarif writes SARIF 2.1.0, the subset GitHub code scanning and
// other tools read: one run of swarm-guard, its rules, and one result per
// finding. verify and scan both report through it.
package sarif
