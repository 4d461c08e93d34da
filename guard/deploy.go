package guard

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// A production deploy through a platform's CLI puts the agent's branch in
// front of the project's users, like publishing a package (publish.go): a
// human's call under oversight (rule oversight, effect.ForgeAction with
// Op ForgeAdmin; checkpoint asks a human; the rule offers a preview
// instead). Previews, dry runs, builds and local dev servers change
// nothing the users see and stay allowed. The npx, bunx and pnpm dlx
// spellings reach these handlers too: npxRun re-invokes the tool they run
// (npx convex deploy is convex deploy).

func (a *analyzer) deploy(inv *shell.Invocation) {
	words := literalWords(inv)
	if args, does := deploys(inv.Name, words); does != 0 {
		a.forgeOp(inv, effect.ForgeAdmin, args, does)
	}
}

// deploys says what a platform CLI deploys to production: the words that
// say so (args) and what it does; does is 0 for a preview, a dry run or
// anything else.
func deploys(prog string, words []string) (args string, does effect.ForgeDoes) {
	var pos []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			i = len(words)
		case strings.HasPrefix(w, "-"):
			if deployValueOpts[w] && i+1 < len(words) {
				i++
			}
		default:
			pos = append(pos, w)
		}
	}
	at := func(i int) string {
		if i < len(pos) {
			return pos[i]
		}
		return ""
	}
	has := func(flags ...string) bool { return hasFlagWord(words, flags...) }
	if has("--dry-run", "--dryrun") {
		return "", 0
	}
	switch prog {
	case "vercel":
		switch at(0) {
		case "", "deploy":
			if has("--prod", "--production") {
				return "--prod", effect.DeploysProject
			}
		case "promote", "rollback":
			return at(0), effect.ChangesProduction
		}
	case "netlify":
		if at(0) == "deploy" && has("--prod", "--production", "--prodIfUnlocked", "-p") {
			return "deploy --prod", effect.DeploysSite
		}
	case "fly", "flyctl":
		switch at(0) {
		case "deploy":
			if !has("--build-only") {
				return "deploy", effect.DeploysApp
			}
		case "launch":
			if !has("--no-deploy") {
				return "launch", effect.LaunchesApp
			}
		}
	case "railway":
		switch at(0) {
		case "up", "redeploy", "down":
			return at(0), effect.ChangesDeployment
		}
	case "firebase":
		if at(0) == "deploy" {
			return "deploy", effect.DeploysProject
		}
	case "wrangler":
		switch {
		case at(0) == "deploy" || at(0) == "publish":
			return at(0), effect.DeploysWorker
		case at(0) == "versions" && at(1) == "deploy", at(0) == "rollback":
			return strings.TrimSpace(at(0) + " " + at(1)), effect.ChangesWorker
		case at(0) == "pages" && at(1) == "deploy":
			for i, w := range words {
				if v, ok := strings.CutPrefix(w, "--branch="); ok && v != "main" && v != "master" && v != "production" {
					return "", 0 // a preview branch
				} else if w == "--branch" && i+1 < len(words) && words[i+1] != "main" && words[i+1] != "master" && words[i+1] != "production" {
					return "", 0
				}
			}
			return "pages deploy", effect.DeploysPages
		}
	case "supabase":
		switch {
		case at(0) == "db" && at(1) == "push" && !has("--local"):
			return "db push", effect.PushesMigrations
		case at(0) == "db" && at(1) == "reset" && has("--linked", "--db-url"):
			return "db reset --linked", effect.ResetsDatabase
		case at(0) == "functions" && at(1) == "deploy":
			return "functions deploy", effect.DeploysEdgeFunctions
		}
	case "render":
		if at(0) == "deploys" && at(1) == "create" {
			return "deploys create", effect.DeploysService
		}
	case "heroku":
		switch at(0) {
		case "container:release", "releases:rollback", "builds:create", "pipelines:promote":
			return at(0), effect.ChangesApp
		}
	case "convex":
		if at(0) == "deploy" && !has("--preview-create", "--preview-name") {
			return "deploy", effect.DeploysFunctions
		}
	case "serverless", "sls":
		if at(0) == "deploy" && !has("--noDeploy") {
			return "deploy", effect.DeploysService
		}
	case "amplify":
		if at(0) == "publish" || at(0) == "push" {
			return at(0), effect.DeploysBackend
		}
	}
	return "", 0
}

// deployValueOpts are the deploy CLIs' options that take the next word
// as their value, so it is not read as the subcommand.
var deployValueOpts = map[string]bool{
	"--token": true, "-t": true, "--scope": true, "-S": true, "--cwd": true, "--local-config": true, "-A": true,
	"--global-config": true, "-Q": true, "--team": true, "--site": true, "--auth": true, "--dir": true, "-d": true,
	"--functions": true, "-f": true, "--app": true, "-a": true, "--config": true, "-c": true, "--project": true,
	"-P": true, "--only": true, "--env": true, "-e": true, "--service": true, "-s": true, "--environment": true,
	"--region": true, "-r": true, "--stage": true, "--message": true, "-m": true, "--project-ref": true,
	"--workdir": true, "--remote": true, "--name": true, "--branch": true, "--alias": true,
}
