package packs

import (
	"github.com/swarm-guard/swarm-guard/policy"
)

// backup (vendor pack): what the storage tool pack leaves to a team's
// choice. That pack already denies restic forget/prune, borg delete and
// prune, and velero backup deletes; this pack adds Borg 2's repository
// deletes, Velero's restore and location deletes, and kopia, duplicity
// and tarsnap, whose deletes remove the copies a restore would need.
var backup = &Pack{
	Name:       "backup",
	Vendor:     true,
	Programs:   []string{"borg", "velero", "kopia", "duplicity", "tarsnap"},
	ValueFlags: []string{"-r", "--repo", "--config-file", "--password", "-n", "--namespace", "--kubeconfig", "--name", "-f", "--keyfile"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveService, Name: "backup-store-delete",
			Reason:  "deletes a backup repository, snapshots, restore records or backup locations",
			Instead: "list what is there (borg rlist, velero restore get, kopia snapshot list, duplicity collection-status file:///srv/backup, tarsnap --list-archives); ask a human to remove backups",
			Match: func(c Call) bool {
				switch c.Program {
				case "borg":
					return c.Sub("repo-delete") || c.Sub("rdelete")
				case "velero":
					return c.Sub("restore", "delete") || c.Sub("snapshot-location", "delete") || c.Sub("delete", "restore")
				case "kopia":
					return (c.Sub("snapshot") || c.Sub("snap")) && (deleteVerb(c.Pos(1)) || posIn(c, 1, "expire") && c.Has("--delete")) ||
						c.Sub("maintenance", "run") && c.Has("--full") && c.Has("--safety=none") || c.Sub("repository", "set-parameters") && c.Has("--retention-mode")
				case "duplicity":
					return posIn(c, 0, "remove-older-than", "remove-all-but-n-full", "remove-all-inc-of-but-n-full", "cleanup") && c.Has("--force")
				case "tarsnap":
					return c.Has("-d", "--nuke")
				}
				return false
			},
			Deny: []string{"borg repo-delete", "borg rdelete", "velero restore delete restore-2025-01-01 --confirm", "velero snapshot-location delete default --confirm",
				"kopia snapshot delete k1234 --delete", "duplicity remove-older-than 30D --force file:///srv/backup", "tarsnap -d -f nightly-2025-01-01", "tarsnap --nuke"},
			Allow: []string{"borg rlist", "velero restore get", "kopia snapshot list", "duplicity collection-status file:///srv/backup", "tarsnap --list-archives",
				"duplicity remove-older-than 30D file:///srv/backup", "borg compact /srv/borg", "velero restore create --from-backup nightly"},
		},
	},
}
