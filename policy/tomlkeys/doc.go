// Package tomlkeys finds the line of a TOML file that defines a key.
// BurntSushi/toml reports positions only for syntax errors, and an
// unknown or invalid key must name its line too: the policy file's
// errors and the repository's gitleaks config errors both come here.
// The package is pure: it reads the bytes it is given.
package tomlkeys
