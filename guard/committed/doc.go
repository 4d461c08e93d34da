// Package committed judges what a commit adds for others to run: shell
// scripts, Makefile recipes, package.json scripts, justfiles, Taskfiles,
// Dockerfile RUN instructions, docker-compose commands, GitHub Actions run
// steps and composite actions, GitLab CI scripts, Terraform local-exec
// provisioners and the local hooks of husky, lefthook and pre-commit.
//
// The agent cannot push to main, but a human merging its pull request, CI
// running its workflow or the next teammate's npm install all run what it
// committed. Each command such a file holds is judged by the same engine
// rules as a command the agent types (guard.Engine.CheckCommand), in the
// context where it will run:
//
//   - Extract reads a file of one of the formats (Detect) into Commands,
//     each with its file and the line it starts on. The task runners'
//     readers are the engine's own (guard.MakefileCommands and its
//     siblings), so a recipe reads the same whether make is typed or the
//     Makefile is committed. YAML formats are read with gopkg.in/yaml.v3
//     (already a dependency of install/) for its line numbers.
//   - A Context (context_ci.go, context_build.go, context_dev.go) says
//     where a format's commands run, which rules do not apply there and
//     why, and which variables hold that context's secrets; each keeps
//     must-report and must-pass examples beside it.
//   - Judge runs each command through the engine with its context's Env
//     and returns Findings, each with its file, line and a fingerprint
//     that an ignore file (.swarm-guard-ignore) can accept.
//
// Like the engine, the package is pure: the adapters (the pre-commit
// hook, verify, scan --commands) read the files and the git changes and
// hand their text in.
package committed
