// Package citest builds synthetic git histories with `git fast-import` and
// provides a fake secret scanner, for the tests of hooks/ci and of
// `swarm-guard verify`. The fake secrets themselves come from
// hooks/secretscan/fakesecret, made at run time.
package citest
