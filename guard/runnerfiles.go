package guard

import (
	"sort"
	"strings"
)

// The task runners' readers (makefile.go, justfile.go, taskfile.go,
// packagescripts.go) also serve the judging of committed files (package
// guard/committed): the commands a file holds, each with the line it
// starts on, read by the same parser that reads them when a runner runs.

// FileCommand is one command a task runner's file holds.
type FileCommand struct {
	Name string // the target, recipe, task or script that runs it
	Line int    // the line it starts on, 1-based
	Text string // the command as the runner hands it to the shell
}

// InstallScripts are the package.json scripts installing the package
// itself runs (npm install, npm ci, yarn, pnpm install): every teammate's
// install runs them.
var InstallScripts = []string{"preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"}

// MakefileCommands returns every recipe line of a makefile, make's
// prefixes (@, -, +) taken off and its variables expanded as a run of
// that target would; pattern rules are read with an unknown stem.
func MakefileCommands(text string) []FileCommand {
	mf := parseMakefile(text)
	var rs []*makeRule
	for _, r := range mf.rules {
		rs = append(rs, r)
	}
	rs = append(rs, mf.patterns...)
	var out []FileCommand
	for _, r := range rs {
		for i, l := range r.recipe {
			l = strings.TrimLeft(l, " \t")
			for len(l) > 0 && strings.ContainsRune("@-+", rune(l[0])) {
				l = strings.TrimLeft(l[1:], " \t")
			}
			if l == "" {
				continue
			}
			out = append(out, FileCommand{Name: r.target, Line: r.recipeAt[i], Text: mf.expand(l, r.target, r, 0)})
		}
	}
	sortCommands(out)
	return out
}

// JustfileCommands returns every recipe line of a justfile (a shebang
// recipe in a shell is one script) and the backticks of its assignments.
func JustfileCommands(text string) []FileCommand {
	jf := parseJustfile(text)
	var out []FileCommand
	for name, r := range jf.recipes {
		for i, l := range r.lines {
			if strings.TrimSpace(l) != "" && l != makeUnknown {
				out = append(out, FileCommand{Name: name, Line: r.at[i], Text: l})
			}
		}
	}
	sortCommands(out)
	return out
}

// TaskfileCommands returns every command of a Taskfile's tasks; ok is
// false for a shape its reader does not understand.
func TaskfileCommands(text string) ([]FileCommand, bool) {
	tf, ok := parseTaskfile(text)
	if !ok {
		return nil, false
	}
	var out []FileCommand
	for name, t := range tf {
		for i, c := range t.cmds {
			if !strings.HasPrefix(c, "\x00task:") && strings.TrimSpace(c) != "" {
				out = append(out, FileCommand{Name: name, Line: t.at[i], Text: c})
			}
		}
	}
	sortCommands(out)
	return out, true
}

func sortCommands(c []FileCommand) {
	sort.SliceStable(c, func(i, j int) bool {
		if c[i].Line != c[j].Line {
			return c[i].Line < c[j].Line
		}
		return c[i].Name < c[j].Name
	})
}
