package committed

import (
	"path"
	"strings"
)

// Format is a kind of committed file whose commands are judged.
type Format string

// The formats Detect recognises.
const (
	Shell          Format = "shell"          // *.sh, *.bash, a shell shebang, husky hooks
	Makefile       Format = "makefile"       // Makefile, GNUmakefile, *.mk
	PackageJSON    Format = "package-json"   // package.json scripts
	Justfile       Format = "justfile"       // justfile, *.just
	Taskfile       Format = "taskfile"       // Taskfile.yml
	Dockerfile     Format = "dockerfile"     // Dockerfile, *.Dockerfile, Containerfile: RUN
	Compose        Format = "compose"        // docker-compose.yml, compose.yaml: command, entrypoint
	GitHubWorkflow Format = "github-actions" // .github/workflows/*.yml: run steps
	GitHubAction   Format = "github-action"  // action.yml of a composite action
	GitLabCI       Format = "gitlab-ci"      // .gitlab-ci.yml: script, before_script, after_script
	Terraform      Format = "terraform"      // *.tf: provisioner "local-exec"
	Lefthook       Format = "lefthook"       // lefthook.yml: hooks' run
	PreCommit      Format = "pre-commit"     // .pre-commit-config.yaml: local hooks' entry
)

// Formats lists every format, in documentation order.
var Formats = []Format{Shell, Makefile, PackageJSON, Justfile, Taskfile, Dockerfile, Compose, GitHubWorkflow, GitHubAction, GitLabCI, Terraform, Lefthook, PreCommit}

// Detect tells the format of a file from its path (slash-separated,
// relative to the repository root) and its first bytes (for a shebang);
// "" for a file that holds no commands it judges.
func Detect(p string, head []byte) Format {
	p = strings.TrimPrefix(path.Clean("/"+p), "/")
	base := path.Base(p)
	lower := strings.ToLower(base)
	dir := path.Dir(p)
	if strings.Contains("/"+dir+"/", "/.husky/_/") {
		return "" // husky's own scripts, rewritten by every install
	}
	for _, part := range strings.Split(dir, "/") {
		if part == "node_modules" || part == "vendor" || part == ".git" || part == "testdata" {
			return ""
		}
	}
	switch {
	case (dir == ".github/workflows" || strings.HasSuffix(dir, "/.github/workflows")) && yamlName(lower):
		return GitHubWorkflow
	case lower == "action.yml" || lower == "action.yaml":
		return GitHubAction
	case lower == ".gitlab-ci.yml" || lower == ".gitlab-ci.yaml" || (strings.HasPrefix(dir, ".gitlab/ci") || strings.HasSuffix(lower, ".gitlab-ci.yml")) && yamlName(lower):
		return GitLabCI
	case base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(lower, ".mk"):
		return Makefile
	case base == "package.json":
		return PackageJSON
	case lower == "justfile" || lower == ".justfile" || strings.HasSuffix(lower, ".just"):
		return Justfile
	case strings.HasPrefix(lower, "taskfile") && yamlName(lower):
		return Taskfile
	case lower == "dockerfile" || lower == "containerfile" || strings.HasSuffix(lower, ".dockerfile") || strings.HasPrefix(lower, "dockerfile.") && !strings.HasSuffix(lower, ".dockerignore"):
		return Dockerfile
	case (strings.HasPrefix(lower, "docker-compose") || lower == "compose.yml" || lower == "compose.yaml" || strings.HasPrefix(lower, "compose.")) && yamlName(lower):
		return Compose
	case strings.HasSuffix(lower, ".tf"):
		return Terraform
	case strings.TrimPrefix(strings.TrimSuffix(strings.TrimSuffix(lower, ".yml"), ".yaml"), ".") == "lefthook" || strings.HasPrefix(strings.TrimPrefix(lower, "."), "lefthook-local.") || strings.HasPrefix(strings.TrimPrefix(lower, "."), "lefthook.") && yamlName(lower):
		return Lefthook
	case lower == ".pre-commit-config.yaml" || lower == ".pre-commit-config.yml":
		return PreCommit
	case strings.HasSuffix(lower, ".sh") || strings.HasSuffix(lower, ".bash"):
		return Shell
	case (dir == ".husky" || strings.HasSuffix(dir, "/.husky")) && !strings.Contains(base, "."):
		return Shell // husky's hooks are shell scripts without an extension (not .husky/_/, its own)
	}
	if shellShebang(head) {
		return Shell
	}
	return ""
}

func yamlName(lower string) bool {
	return strings.HasSuffix(lower, ".yml") || strings.HasSuffix(lower, ".yaml")
}

// shellShebang reports whether a file starts with a shebang naming a
// POSIX shell or bash (#!/bin/sh, #!/usr/bin/env bash).
func shellShebang(head []byte) bool {
	if len(head) < 3 || head[0] != '#' || head[1] != '!' {
		return false
	}
	line, _, _ := strings.Cut(string(head[2:min(len(head), 200)]), "\n")
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false
	}
	prog := path.Base(fields[0])
	if prog == "env" {
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") {
				prog = path.Base(f)
				break
			}
		}
	}
	return isShellName(prog)
}

func isShellName(prog string) bool {
	switch prog {
	case "sh", "bash", "dash", "ksh", "ash", "mksh":
		return true
	}
	return false
}
