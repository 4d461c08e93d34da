package main

import "fmt"

func init() {
	commands = append(commands, &command{
		name:    "version",
		summary: "print the version",
		usage:   "Usage: swarm-guard version",
		run: func(c *cli, args []string) error {
			fmt.Fprintln(c.stdout, "swarm-guard", version())
			return nil
		},
	})
}
