// Package envcreds finds the values of the credential variables of the
// environment (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, DEPLOY_TOKEN …) in a
// text. gitleaks often cannot recognise such a value: printed or written
// alone it carries no keyword, and many have no known prefix. Yet Claude
// Code runs its hooks with the environment its Bash tool gets, and git
// runs its hooks with the committer's, so the hooks know the values:
//
//   - PostToolUse withholds every line of Bash output or of a Read result
//     that holds one, as it withholds a gitleaks finding, and blocks an MCP
//     result holding one;
//   - a Write, Edit or NotebookEdit that would write one, and an MCP call
//     whose arguments hold one, are denied (secret-content);
//   - pre-commit refuses a staged line that holds one.
//
// Values are looked for as they are and in base64 (what echo "$X" | base64
// prints). It links only the standard library's strings and encoding/base64,
// for swarm-guard-post, which must hand such output to the full hook.
package envcreds
