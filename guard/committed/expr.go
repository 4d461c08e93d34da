package committed

import (
	"regexp"
	"strings"
)

// GitHub Actions fills ${{ expression }} into a run step's text before
// the shell sees it. The shell reader gets what stands for each:
//
//   - secrets.NAME: the variable $NAME, named a secret of the job
//     (secrets.GITHUB_TOKEN and github.token: $GITHUB_TOKEN, whose
//     service the engine knows);
//   - env.NAME: $NAME;
//   - github.ref_name and the other values the runner also sets as
//     variables: that variable;
//   - anything else (matrix values, inputs, step outputs): a plain word.
var ghExpr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

var secretRef = regexp.MustCompile(`secrets(?:\.([A-Za-z_][A-Za-z0-9_-]*)|\[\s*'([^']+)'\s*\])`)

// ghContextVars are the github.* values the runner also sets as variables.
var ghContextVars = map[string]string{
	"github.token": "GITHUB_TOKEN", "github.ref_name": "GITHUB_REF_NAME", "github.ref": "GITHUB_REF", "github.head_ref": "GITHUB_HEAD_REF",
	"github.base_ref": "GITHUB_BASE_REF", "github.sha": "GITHUB_SHA", "github.repository": "GITHUB_REPOSITORY", "github.actor": "GITHUB_ACTOR",
	"github.workspace": "GITHUB_WORKSPACE", "github.server_url": "GITHUB_SERVER_URL", "github.api_url": "GITHUB_API_URL",
	"github.run_id": "GITHUB_RUN_ID", "github.run_number": "GITHUB_RUN_NUMBER", "runner.temp": "RUNNER_TEMP", "runner.os": "RUNNER_OS",
	"runner.tool_cache": "RUNNER_TOOL_CACHE",
}

// ghExpressions rewrites a run step's expressions, naming the secrets it
// refers to in c.Secrets.
func ghExpressions(s string, c *Command) string {
	if !strings.Contains(s, "${{") {
		return s
	}
	return ghExpr.ReplaceAllStringFunc(s, func(m string) string {
		expr := strings.TrimSpace(ghExpr.FindStringSubmatch(m)[1])
		if sm := secretRef.FindStringSubmatch(expr); sm != nil && sm[0] == expr {
			name := sm[1] + sm[2]
			v := varName(name)
			if v != "GITHUB_TOKEN" {
				addVar(&c.Secrets, v, "secrets."+name)
			}
			return "${" + v + "}"
		}
		if v, ok := ghContextVars[expr]; ok {
			return "${" + v + "}"
		}
		if name, ok := strings.CutPrefix(expr, "env."); ok && varName(name) == name {
			return "${" + name + "}"
		}
		if strings.Contains(expr, "secrets.") || strings.Contains(expr, "secrets[") {
			// a secret chosen by an expression (secrets[matrix.key], a || b)
			addVar(&c.Secrets, "SECRETS_EXPRESSION", expr)
			return "${SECRETS_EXPRESSION}"
		}
		return placeholder
	})
}

// ghValue rewrites the expressions of a value that is not a script (a
// working-directory, an env: value) into a plain word.
func ghValue(s string, _ *Command) string {
	return ghExpr.ReplaceAllStringFunc(s, func(m string) string {
		expr := strings.TrimSpace(ghExpr.FindStringSubmatch(m)[1])
		if v, ok := githubJob.Vars[ghContextVars[expr]]; ok {
			return v
		}
		return placeholder
	})
}

// secretSource names the secret an env: value holds ("secrets.X",
// "github.token"), or "".
func secretSource(v string) string {
	for _, m := range ghExpr.FindAllStringSubmatch(v, -1) {
		expr := strings.TrimSpace(m[1])
		if sm := secretRef.FindString(expr); sm != "" {
			return sm
		}
		if expr == "github.token" {
			return "github.token"
		}
	}
	return ""
}

// varName makes a shell variable name of a secret's name.
func varName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' && i > 0) {
			b[i] = '_'
		}
	}
	return string(b)
}

// lefthookTemplate is lefthook's {staged_files}, {files}, {0} and the
// like.
var lefthookTemplate = regexp.MustCompile(`\{[a-z_0-9]+\}`)
