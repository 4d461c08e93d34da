package effect

// Source is where secret data comes from: the taint the shell layer
// carries on words, variables, standard input and the files a command
// writes, and what a Send says it carries off the machine. The tool code
// that recognises a source says which it is and with what detail; the
// rule writes the words (guard/rules/secret_exfiltration.go, sourceWords).
// The shell layer carries a *Source, nil for none; a Source is never
// changed once made, so words and inputs share it.
type Source struct {
	Kind SourceKind
	// Name is what the source is, by Kind: the variable's name
	// (CredentialVariable: GITHUB_TOKEN), the file's path (SecretFile,
	// ProcessEnvironment: /proc/1/environ), the command as recognised
	// (CredentialCommand: "gh auth token", "git config --list"), the
	// operand copied (RepositoryCopy, GitDirCopy: ".", ".git"), the URL's
	// user or token marker (URLPassword, URLToken), the user of a login
	// option (LoginOption), the scanner's rule (Scanned*).
	Name string
	// Via is how it is read, by Kind: what dumps the environment
	// (EnvironmentDump: env, printenv, set, export, /proc/self/environ,
	// os.environ), the URL's host (URLPassword, URLToken), the option
	// (LoginOption, PasswordOption: -u, --password), the URL's parameter
	// (ScannedParameter).
	Via string
}

// SourceKind tells secret sources apart.
type SourceKind uint8

const (
	NoSource           SourceKind = iota
	CredentialVariable            // $NAME of a variable that holds a credential, printenv NAME
	EnvironmentDump               // the shell's whole environment: env, printenv, set, export -p, /proc/self/environ, os.environ
	ProcessEnvironment            // another process's environment: /proc/<pid>/environ
	SecretFile                    // a secret file ([secret_files], /run/secrets/*)
	CredentialCommand             // a command that prints a stored credential: gh auth token, aws configure get, git credential fill
	RepositoryBundle              // the repository's history: git bundle create -
	RepositoryArchive             // the repository's files: git archive
	RepositoryPatches             // the repository's commits: git format-patch --stdout
	RepositoryCopy                // a copy of the worktree's top level, its .git with it (scp -r . host:)
	GitDirCopy                    // a copy of the repository's git directory (tar czf - .git)
	URLPassword                   // the password in a URL's user-info (https://user:pw@host/)
	URLToken                      // the token given as a URL's user (https://TOKEN:x-oauth-basic@host/)
	LoginOption                   // a web client's user:password option (curl -u user:pw)
	PasswordOption                // a web client's password option (wget --password=pw)
	ScannedQuery                  // a secret the hook's scanner found in a search query
	ScannedURL                    // a secret the hook's scanner found in a URL
	ScannedParameter              // a secret the hook's scanner found in a URL's query or fragment parameter
)

// Variable is the credential variable's name when the source is one
// (GITHUB_TOKEN for $GITHUB_TOKEN): it may go to its own service.
func (s Source) Variable() string {
	if s.Kind == CredentialVariable {
		return s.Name
	}
	return ""
}

// Repository reports whether the source is the repository's own history
// or files: it may go to the hosts the repository's remotes name.
func (s Source) Repository() bool { return s.Kind >= RepositoryBundle && s.Kind <= GitDirCopy }
