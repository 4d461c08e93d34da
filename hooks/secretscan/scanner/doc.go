// Package scanner is the heavy half of swarm-guard's secret scanning and
// the only package that links gitleaks. It runs in its own executable,
// swarm-guard-secrets, because linking gitleaks costs every process that
// contains it about 3.5 ms of start-up, and the light swarm-guard binary
// starts on every Claude Code tool call.
//
// Main reads a wire.Request and wire.Blocks on stdin and writes one
// wire.Result on stdout. On the way it:
//
//   - builds the rule set without viper: gitleaks' default rules are
//     pre-decoded at build time (defaults_gen.go), a repository
//     .gitleaks.toml is decoded with BurntSushi/toml and merged the way
//     gitleaks' [extend] would, without touching gitleaks' package-global
//     extend counter;
//   - compiles only the rules whose keywords occur in the text (including
//     text revealed by the decoding passes), in batches as new keywords
//     appear, instead of all ~220 regexes up front;
//   - cuts big blocks into chunks at blank lines, because one gitleaks
//     fragment costs more than linear time in its size;
//   - applies .gitleaksignore fingerprints and inline gitleaks:allow;
//   - redacts every finding before it leaves the process.
//
// A broken .gitleaks.toml is an error naming the file and the key, never a
// panic: gitleaks compiles regexes with MustCompile, so every user regex
// is compiled here first and Translate runs under recover.
package scanner
