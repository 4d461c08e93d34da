package guard

import (
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// Publishing a package or an image is a release: what the world installs
// next is the agent's branch as it is, secrets committed by mistake
// included, under the project's name. Like gh release create it is a
// human's call under oversight (rule oversight, effect.ForgeAction with
// Op ForgeAdmin; checkpoint asks a human). A dry run publishes nothing,
// and a push to a registry on this machine (localhost:5000/app) stays on
// it. Withdrawing a version (npm unpublish, cargo yank) is the storage
// pack's registry-unpublish (guard/packs/storage.go).

// publish hands a publishing invocation to the oversight judge.
func (a *analyzer) publish(inv *shell.Invocation) {
	words := literalWords(inv)
	if p := publishes(inv.Name, words); p.Does != 0 {
		p.Op, p.By = effect.ForgeAdmin, inv.Name
		a.judge(inv, p)
	}
}

// publishes says what a command publishes: the words that say so (Args),
// what it does and to where (Subject); Does is 0 when it publishes
// nothing.
func publishes(prog string, words []string) effect.ForgeAction {
	type fa = effect.ForgeAction
	// The operands, skipping the values of options that take one: in
	// npm --registry https://r.example publish and docker --context prod
	// push img the subcommand is the word after the option's value. cargo
	// +nightly publish names a toolchain before the subcommand.
	var pos []string
	valueOpts := publishValueOpts()[prog]
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			pos = append(pos, words[i+1:]...)
			i = len(words)
		case strings.HasPrefix(w, "-") && w != "-":
			if name := strings.TrimLeft(w, "-"); !strings.Contains(name, "=") && valueOpts[name] {
				i++
			}
		case prog == "cargo" && len(pos) == 0 && strings.HasPrefix(w, "+"):
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
	dry := has("--dry-run", "--dryrun")
	// A registry on this machine (verdaccio on localhost:4873, a local
	// PyPI) is a test of the release, not the release.
	for i, w := range words {
		v, ok := "", false
		switch {
		case (w == "--registry" || w == "--repository-url" || w == "--index") && i+1 < len(words):
			v, ok = words[i+1], true
		case strings.HasPrefix(w, "--registry="), strings.HasPrefix(w, "--repository-url="), strings.HasPrefix(w, "--index="):
			_, v, ok = strings.Cut(w, "=")
		}
		if ok && Loopback(urlHost(v)) {
			return fa{}
		}
	}
	switch prog {
	case "npm", "pnpm", "bun", "yarn":
		sub := at(0)
		if prog == "yarn" && sub == "npm" { // yarn npm publish (berry)
			sub = at(1)
		}
		if sub == "publish" && !dry {
			return fa{Args: "publish", Does: effect.PublishesPackage, Subject: "the npm registry"}
		}
	case "cargo":
		if at(0) == "publish" && !dry && !has("-n") {
			return fa{Args: "publish", Does: effect.PublishesCrate}
		}
	case "twine":
		if at(0) == "upload" {
			return fa{Args: "upload", Does: effect.PublishesPackage, Subject: "PyPI"}
		}
	case "poetry", "uv", "flit", "hatch":
		if at(0) == "publish" && !dry {
			return fa{Args: "publish", Does: effect.PublishesPackage, Subject: "PyPI"}
		}
	case "gem":
		if at(0) == "push" {
			return fa{Args: "push", Does: effect.PublishesGem}
		}
	case "docker", "podman", "buildah":
		img, built := "", false
		switch {
		case at(0) == "push":
			img = at(1)
		case at(0) == "image" && at(1) == "push":
			img = at(2)
		case at(0) == "buildx" && at(1) == "build" && has("--push"), at(0) == "build" && has("--push"):
			built = true
			for i, w := range words {
				if (w == "-t" || w == "--tag") && i+1 < len(words) {
					img = words[i+1]
				} else if v, ok := strings.CutPrefix(w, "--tag="); ok {
					img = v
				}
			}
		default:
			return fa{}
		}
		if localRegistry(img) {
			return fa{}
		}
		if built && img == "" {
			return fa{Args: "push", Does: effect.PublishesBuiltImage}
		}
		return fa{Args: "push", Does: effect.PublishesImage, Subject: img}
	case "helm":
		if at(0) == "push" {
			return fa{Args: "push", Does: effect.PublishesChart}
		}
	case "dotnet", "nuget":
		if at(0) == "push" || at(0) == "nuget" && at(1) == "push" {
			return fa{Args: "push", Does: effect.PublishesPackage, Subject: "NuGet"}
		}
	case "vsce", "ovsx":
		if at(0) == "publish" || at(0) == "unpublish" {
			return fa{Args: at(0), Does: effect.PublishesExtension}
		}
	case "goreleaser":
		if (at(0) == "release" || at(0) == "") && !has("--snapshot") && !skips(words, "publish") {
			return fa{Args: "release", Does: effect.PublishesArtifacts}
		}
	case "lerna", "changeset":
		if at(0) == "publish" && !dry {
			return fa{Args: "publish", Does: effect.PublishesWorkspace}
		}
	case "gradle", "gradlew":
		for _, p := range pos {
			// publish, publishToSonatype, :lib:publishAllPublicationsToMavenRepository;
			// publishToMavenLocal stays on this machine.
			task := p[strings.LastIndex(p, ":")+1:]
			if strings.HasPrefix(task, "publish") && !strings.HasSuffix(task, "ToMavenLocal") || task == "closeAndReleaseRepository" || task == "uploadArchives" {
				return fa{Args: p, Does: effect.PublishesToRepository}
			}
		}
	case "mvn", "mvnw":
		for _, p := range pos {
			if p == "deploy" || p == "deploy:deploy" || p == "release:perform" {
				return fa{Args: p, Does: effect.PublishesToRepository}
			}
		}
	case "deno", "jsr":
		if at(0) == "publish" && !dry {
			return fa{Args: "publish", Does: effect.PublishesPackage, Subject: "JSR"}
		}
	case "semantic-release":
		if !dry && !has("-d") {
			return fa{Does: effect.PublishesReleasePackages}
		}
	}
	return fa{}
}

// localRegistry reports whether an image name points at a registry on
// this machine (localhost:5000/app, 127.0.0.1:5000/app).
func localRegistry(img string) bool {
	host, _, ok := strings.Cut(img, "/")
	if !ok {
		return false
	}
	host, _, _ = strings.Cut(host, ":")
	return Loopback(host)
}

// publishValueOpts are the options of each publishing program that take
// a value as the next word, global ones first (docker -H, helm
// --kube-context), so that value is not read as the subcommand.
var publishValueOpts = sync.OnceValue(func() map[string]map[string]bool {
	npm := npmValueOpts()
	container := shell.Longs("H", "host", "context", "c", "config", "log-level", "l", "tlscacert", "tlscert", "tlskey",
		"url", "connection", "identity", "root", "runroot", "storage-driver", "storage-opt", "cgroup-manager", "events-backend",
		"runtime", "tmpdir", "module", "ssh", "builder", "platform", "t", "tag", "f", "file", "creds", "authfile", "cert-dir",
		"digestfile", "sign-by", "compression-format", "format")
	py := shell.Longs("repository-url", "r", "repository", "u", "username", "p", "password", "c", "comment", "config-file",
		"i", "identity", "sign-with", "cert", "client-cert", "directory", "C", "project", "P", "cache-dir", "python", "color",
		"index", "publish-url", "token", "t", "check-url", "trusted-publishing", "keyring-provider", "a", "auth", "repo", "pypirc")
	return map[string]map[string]bool{
		"npm": npm, "pnpm": npm, "yarn": npm, "bun": npm, "lerna": npm, "changeset": npm,
		"cargo": shell.Longs("features", "F", "package", "p", "registry", "target", "manifest-path", "index", "j", "jobs",
			"config", "Z", "color", "token", "target-dir", "lockfile-path"),
		"docker": container, "podman": container, "buildah": container,
		"twine": py, "poetry": py, "uv": py, "flit": py, "hatch": py,
		"gem": shell.Longs("config-file", "key", "k", "host", "otp", "attestation"),
		"helm": shell.Longs("kube-context", "kubeconfig", "namespace", "n", "registry-config", "repository-cache",
			"repository-config", "kube-apiserver", "kube-as-user", "kube-as-group", "kube-token", "kube-ca-file",
			"kube-tls-server-name", "burst-limit", "qps", "cert-file", "key-file", "ca-file", "username", "password"),
		"dotnet": shell.Longs("source", "s", "api-key", "k", "symbol-source", "symbol-api-key", "sk", "timeout", "t", "ss", "configfile", "ConfigFile"),
		"nuget":  shell.Longs("source", "s", "api-key", "k", "symbol-source", "symbol-api-key", "sk", "timeout", "t", "ss", "configfile", "ConfigFile", "Source", "ApiKey"),
		"vsce":   shell.Longs("p", "pat", "t", "target", "packagePath", "i", "baseContentUrl", "baseImagesUrl", "githubBranch", "gitlabBranch"),
		"ovsx":   shell.Longs("p", "pat", "t", "target", "packagePath", "i", "r", "registryUrl", "baseContentUrl", "baseImagesUrl"),
		"goreleaser": shell.Longs("f", "config", "p", "parallelism", "timeout", "release-notes", "release-header", "release-footer",
			"release-notes-tmpl", "release-header-tmpl", "release-footer-tmpl", "id", "skip"),
		"deno": shell.Longs("config", "c", "log-level", "token", "set-version"),
		"jsr":  shell.Longs("token", "c", "config"),
		"mvnw": shell.Longs("s", "settings", "gs", "global-settings", "f", "file", "pl", "projects", "P", "activate-profiles",
			"rf", "resume-from", "T", "threads", "l", "log-file", "t", "toolchains", "b", "builder", "gt", "global-toolchains"),
		"gradle":  shell.Longs("p", "project-dir", "b", "build-file", "c", "settings-file", "g", "gradle-user-home", "x", "exclude-task", "I", "init-script", "D", "P"),
		"gradlew": shell.Longs("p", "project-dir", "b", "build-file", "c", "settings-file", "g", "gradle-user-home", "x", "exclude-task", "I", "init-script", "D", "P"),
		"mvn": shell.Longs("s", "settings", "gs", "global-settings", "f", "file", "pl", "projects", "P", "activate-profiles",
			"rf", "resume-from", "T", "threads", "l", "log-file", "t", "toolchains", "b", "builder", "gt", "global-toolchains"),
	}
})

// skips reports whether goreleaser's --skip names step, spelled
// --skip=publish, --skip publish or in a list (--skip=validate,publish).
func skips(words []string, step string) bool {
	for i, w := range words {
		v, ok := strings.CutPrefix(w, "--skip=")
		if !ok && w == "--skip" && i+1 < len(words) {
			v, ok = words[i+1], true
		}
		if ok {
			for _, s := range strings.Split(v, ",") {
				if s == step {
					return true
				}
			}
		}
	}
	return false
}
