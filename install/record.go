package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// The install record lists the files install created, so that uninstall
// removes those and only those: a policy file identical to the default
// may just as well be the repository's own, committed one.

const recordName = "install.json"

type record struct {
	Created []string `json:"created"`
}

func loadRecord(stateDir string) (*record, error) {
	r := &record{}
	if stateDir == "" {
		return r, nil
	}
	path := filepath.Join(stateDir, recordName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the install record: %w", err)
	}
	if err := json.Unmarshal(data, r); err != nil {
		return nil, fmt.Errorf("the install record %s is not valid JSON (%v); delete it (uninstall then keeps files install created)", path, err)
	}
	return r, nil
}

func (r *record) created(path string) bool { return slices.Contains(r.Created, path) }

func updateRecord(stateDir string, f func(r *record)) error {
	if stateDir == "" {
		return nil
	}
	r, err := loadRecord(stateDir)
	if err != nil {
		return err
	}
	f(r)
	if len(r.Created) == 0 {
		err := os.Remove(filepath.Join(stateDir, recordName))
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(stateDir, recordName), append(data, '\n'), 0o644)
}

// createRecorded writes a new file and records that install created it.
func createRecorded(stateDir, path string, data []byte, mode os.FileMode) error {
	if err := writeAtomic(path, data, mode); err != nil {
		return err
	}
	return updateRecord(stateDir, func(r *record) {
		if !r.created(path) {
			r.Created = append(r.Created, path)
		}
	})
}

// forget drops path from the install record.
func forget(stateDir, path string) error {
	return updateRecord(stateDir, func(r *record) {
		r.Created = slices.DeleteFunc(r.Created, func(p string) bool { return p == path })
	})
}

// removeRecorded removes a file install created and takes it off the
// record.
func removeRecorded(stateDir, path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove %s: %w", path, err)
	}
	return forget(stateDir, path)
}
