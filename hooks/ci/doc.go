// Package ci is swarm-guard verify: the recheck CI runs over the commits of
// a pull request. Client-side hooks can be skipped (--no-verify, another
// clone, the GitHub web UI); this check cannot, because it runs on the
// server against whatever was pushed.
//
// For every commit of a range BASE..HEAD it checks that there is exactly one
// well-formed agent trailer (merge commits and exempt authors as the policy
// says), that the commit adds no unresolved conflict markers, and that the
// range adds no secrets (through a SecretScanner: the gitleaks engine lives
// in a separate executable). Across the range it can require a minimum
// number of distinct agents.
//
// The history is read with one `git log` pass over the whole range, never a
// process per commit: trailers, parents and author come from --format, the
// added lines (when conflict markers are checked) from the same pass's
// patch. The policy is read from the range's base, so a pull request cannot
// relax the rules it is checked against.
//
// A shallow clone is an environment error, never a pass: the range's
// history is incomplete, so neither "clean" nor "violation" would be true.
package ci
