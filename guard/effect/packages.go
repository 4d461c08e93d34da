package effect

// PackageInstall is a command that fetches packages from a registry to
// install or run them: npm install x, pip install y, npx z, uvx t,
// go install m@v, apt-get install jq, a package call in R code.
type PackageInstall struct {
	By        string    // the command as a reason names it: "npm", "uvx", "Rscript"
	Ecosystem string    // the [packages] key: npm, pip, go, cargo, gem, system, other
	Packages  []Package // what it names; local paths (., ./x, /x) are not packages
	// Declared is the command that installs what the project already
	// declares ("npm ci", "uv sync"), or "".
	Declared string
	// Own is the command that runs the project's own copy of the one tool
	// a runner would fetch (pnpm dlx eslint: "pnpm exec eslint"), which
	// its package.json declares; "" otherwise.
	Own string
	// Unreadable: By's code calls Manager (pip) with arguments the guard
	// cannot read, so Packages is unknown.
	Unreadable bool
	Manager    string
}

// Package is one package an install names.
type Package struct {
	// Name is the registry name, versions and extras stripped ("left-pad",
	// "requests", "@scope/x"); the "other" ecosystem's names carry their
	// tool ("composer:x/y", "R:dplyr"); a name only known at run time reads
	// as written ("$PKG").
	Name string
	// Local: the project's own installed tool (node_modules/.bin/NAME for
	// npx NAME), which runs without fetching anything.
	Local bool
}

func (PackageInstall) isEffect() {}
