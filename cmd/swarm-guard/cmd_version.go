package main

import (
	"encoding/json"
	"fmt"
	"runtime"
)

func init() {
	commands = append(commands, &command{
		name:    "version",
		summary: "print the version, commit and Go version",
		usage: `Usage: swarm-guard version [--format text|json | --json]

Prints the release version (v0.x.y; "devel-<commit>" for a build from
source), the commit it was built from, the Go version and the platform.`,
		run: runVersion,
	})
}

func runVersion(c *cli, args []string) error {
	fs := newFlags("version")
	format := fs.String("format", "text", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("usage: version takes no arguments")
	}
	info := struct {
		Version  string `json:"version"`
		Commit   string `json:"commit"`
		Go       string `json:"go"`
		Platform string `json:"platform"`
	}{version(), commit(), runtime.Version(), runtime.GOOS + "/" + runtime.GOARCH}
	switch *format {
	case "json":
		b, _ := json.Marshal(info)
		fmt.Fprintln(c.stdout, string(b))
	case "text":
		fmt.Fprintf(c.stdout, "swarm-guard %s\ncommit %s\n%s %s\n", info.Version, info.Commit, info.Go, info.Platform)
	default:
		return usageErrorf("usage: --format must be text or json, not %q", *format)
	}
	return nil
}
