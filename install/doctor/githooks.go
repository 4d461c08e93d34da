package doctor

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/swarm-guard/swarm-guard/install"
)

func (d *doctor) checkGitHooks() []Result {
	g := d.Git
	if g == nil {
		return []Result{skip("git hooks", "not in a git repository")}
	}
	if g.Refusal != "" {
		return []Result{fail("git hooks", "swarm-guard's git hooks cannot be installed here", g.Refusal)}
	}
	reinstall := "run swarm-guard install"
	var out []Result
	binaries := map[string]bool{}
	for _, h := range install.InspectGitHooks(g) {
		name := "git hook " + h.Name
		where := install.DisplayPath(d.Root, h.Path)
		switch {
		case h.Lefthook && h.Err != nil:
			out = append(out, fail(name, h.Err.Error()+": lefthook runs no hook", "fix "+where+", then run swarm-guard install"))
		case h.Lefthook && !h.Exists:
			out = append(out, fail(name, where+" (lefthook's config) is missing", reinstall))
		case h.Lefthook && h.Stale:
			out = append(out, fail(name, where+": swarm-guard's "+h.Name+" command is not the one install writes (edited by hand, or from another version)", reinstall+": it rewrites the marked lines"))
		case h.Lefthook && !h.Ours:
			out = append(out, fail(name, where+" has no swarm-guard command for "+h.Name, reinstall+": it adds one between marker comments"))
		case h.Lefthook && !h.Runnable:
			out = append(out, fail(name, install.DisplayPath(d.Root, h.RunnerPath)+" is not lefthook's hook, so git does not run lefthook's "+h.Name+" commands", "run `lefthook install` (`npx lefthook install` with lefthook from npm)"))
		case h.Lefthook:
			out = append(out, ok(name, where+": command "+`"swarm-guard"`+", run by lefthook's "+install.DisplayPath(d.Root, h.RunnerPath)))
		case !h.Exists:
			out = append(out, fail(name, where+" is missing", reinstall))
		case !h.Ours && h.MovedTo != "":
			who := h.Manager
			if who == "" {
				who = "another tool"
			}
			out = append(out, fail(name, fmt.Sprintf("%s moved swarm-guard's hook to %s, where git no longer runs it", who, h.MovedTo),
				"run swarm-guard install: it puts swarm-guard's hook back in front and keeps the current hook running after it"))
		case !h.Ours:
			out = append(out, fail(name, where+" is not swarm-guard's (another tool replaced it?)", "run swarm-guard install: the current hook keeps running, after swarm-guard's"))
		case !h.Runnable && g.Husky != "":
			out = append(out, fail(name, h.RunnerPath+" (husky's runner) is missing or not executable, so git runs no hook", "run `npx husky` (npm install does) to create husky's runners"))
		case !h.Runnable:
			out = append(out, fail(name, where+" is not executable, so git skips it", "chmod +x "+shellQuoteArg(h.Path)+", or run swarm-guard install"))
		default:
			detail := where
			if h.Via != "" {
				detail += ": " + h.Via
			}
			if h.Chained != "" {
				detail += ", then " + filepath.Base(h.Chained)
			}
			out = append(out, ok(name, detail))
		}
		if h.Ours {
			binaries[h.Binary] = true // "": found by the lookup rule
		}
	}
	for _, b := range slices.Sorted(maps.Keys(binaries)) {
		out = append(out, d.binaryResult("git hook binary", b, true))
	}
	if g.Lefthook != nil && g.Husky == "" {
		out = append(out, d.lefthookResult(g))
	}
	return out
}

// lefthookResult checks that lefthook's hooks find lefthook: without it
// they print "Can't find lefthook in PATH" and let the commit through.
func (d *doctor) lefthookResult(g *install.GitHooks) Result {
	runner := filepath.Join(g.Dir, "pre-commit")
	if lh := install.LefthookExecutable(d.Root, runner, os.Getenv); lh != "" {
		return ok("lefthook", lh+" (lefthook's hooks run it)")
	}
	return warn("lefthook", "no lefthook on PATH, in node_modules or where lefthook's hook looks first: the hook then prints \"Can't find lefthook in PATH\" and lets every commit through, unchecked by swarm-guard",
		"install lefthook where its hooks find it (npm install --save-dev lefthook, or lefthook on PATH); ignore this if bundle, go tool, mise or another runner provides it")
}
