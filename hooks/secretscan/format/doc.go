// Package format prints the result of a secret scan as text for people,
// as JSON for programs (swarm-guard verify reads it) or as SARIF 2.1.0 for
// code-scanning uploads. Findings arrive redacted from the scanner; the
// printers add nothing that could hold a secret.
package format
