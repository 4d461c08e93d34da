package ci

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/swarm-guard/swarm-guard/policy"
)

// policyAtBase reads the policy file as it is in the range's base commit,
// not in the worktree: the pull request under test must not be able to
// relax the rules it is checked against. changed reports whether the
// range's head has a different version of the file.
func policyAtBase(ctx context.Context, g git, r Range) (pol *policy.Policy, changed bool, err error) {
	blobs, err := readBlobs(ctx, g, r.Base+":"+policy.FileName, r.Head+":"+policy.FileName)
	if err != nil {
		return nil, false, err
	}
	base, head := blobs[0], blobs[1]
	changed = base.id != head.id
	if base.id == "" {
		return policy.Default(), changed, nil
	}
	name := shortID(r.Base) + ":" + policy.FileName
	pol, err = policy.Parse(base.data, name)
	if err != nil {
		return nil, false, fmt.Errorf("the policy of the range's base is invalid: %w", err)
	}
	return pol, changed, nil
}

// blob is one object read with cat-file; id is "" when it does not exist.
type blob struct {
	id   string
	data []byte
}

// readBlobs reads objects by name ("<commit>:<path>") with one
// `git cat-file --batch`.
func readBlobs(ctx context.Context, g git, names ...string) ([]blob, error) {
	r := g.runner()
	r.Stdin = strings.NewReader(strings.Join(names, "\n") + "\n")
	out, err := r.OutputContext(ctx, "cat-file", "--batch")
	if err != nil {
		return nil, gitError(err)
	}
	br := bufio.NewReader(bytes.NewReader(out))
	blobs := make([]blob, len(names))
	for i := range names {
		header, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: short output for %s", names[i])
		}
		f := strings.Fields(header)
		if len(f) == 2 && f[1] == "missing" {
			continue
		}
		if len(f) != 3 || f[1] != "blob" {
			return nil, fmt.Errorf("git cat-file: %s is not a file (%s)", names[i], strings.TrimSpace(header))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(header))
		}
		data := make([]byte, size+1) // the content and its trailing newline
		if _, err := io.ReadFull(br, data); err != nil {
			return nil, fmt.Errorf("git cat-file: short content for %s", names[i])
		}
		blobs[i] = blob{id: f[0], data: data[:size]}
	}
	return blobs, nil
}
