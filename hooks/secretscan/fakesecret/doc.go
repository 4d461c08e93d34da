// Package fakesecret makes credentials for tests: random bodies in the
// exact shape gitleaks' rules look for (AWS keys, GitHub and Slack tokens,
// private-key blocks, generic api_key assignments), so that tests never
// commit a realistic secret and CI, which scans this repository's own
// history, stays clean.
//
// The prefixes and armour lines are assembled at run time from pieces so
// that this source file itself matches no rule.
package fakesecret
