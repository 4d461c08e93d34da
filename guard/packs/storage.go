package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/policy"
)

// storage: tools that sync to remote storage or keep backups (rclone,
// restic, borg) and the package registries' unpublish commands. Copying,
// listing and making backups are safe; purging a remote, syncing with
// deletes, forgetting snapshots and unpublishing what others depend on
// are not. They share the cloud rule: each removes data outside the
// machine that no git history brings back.
var storage = &Pack{
	Name:       "storage",
	Programs:   []string{"rclone", "restic", "borg", "velero", "npm", "pnpm", "cargo", "gem", "mc", "azcopy"},
	ValueFlags: []string{"--config", "-r", "--repo", "--password-file", "-p", "--remote-path", "--registry", "--otp", "--index", "--token", "--host", "--key"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveCloud, Name: "remote-storage-delete",
			Reason:  "deletes files on a remote (rclone, MinIO's mc, azcopy), or makes it match a source by deleting what the source lacks",
			Instead: "copy instead (rclone copy, mc cp, azcopy copy never delete), or run the same command with --dry-run and ask a human to run it for real",
			Match: func(c Call) bool {
				if c.Has("--dry-run", "-n") {
					return false
				}
				switch c.Program {
				case "rclone":
					// move deletes the source once copied; dedupe deletes
					// the duplicates it picks.
					return c.Sub("purge") || c.Sub("delete") || c.Sub("deletefile") || c.Sub("sync") || c.Sub("cleanup") ||
						c.Sub("bisync") || c.Sub("move") || c.Sub("moveto") || c.Sub("dedupe") || c.Sub("rmdir") || c.Sub("rmdirs")
				case "mc": // MinIO
					return c.Sub("rb") || c.Sub("rm") || c.Sub("mirror") && c.Has("--remove", "--overwrite") ||
						c.Sub("admin") && c.AnyPos(1, func(w string) bool {
							return w == "remove" || w == "rm" || w == "delete" || w == "reset" || w == "clear"
						})
				case "azcopy":
					v, _ := c.Value("--delete-destination")
					return c.Sub("remove") || c.Sub("rm") || c.Sub("sync") && strings.EqualFold(v, "true")
				}
				return false
			},
			Deny: []string{"rclone purge remote:backups", "rclone delete remote:site --min-age 1d", "rclone sync ./site remote:www",
				"rclone --config rc.conf sync dist s3:bucket", "rclone cleanup remote:", "rclone deletefile remote:www/old.html",
				"rclone move remote:inbox ./inbox", "rclone dedupe --dedupe-mode newest remote:photos", "rclone rmdir remote:old",
				"mc rb --force myminio/bucket", "mc rm --recursive --force myminio/bucket/data", "mc rm myminio/bucket/key.txt",
				"mc admin user remove myminio alice", "mc mirror --remove ./site myminio/www",
				"azcopy remove 'https://acct.blob.core.windows.net/c/dir' --recursive",
				"azcopy sync ./dist 'https://acct.blob.core.windows.net/c' --delete-destination=true"},
			Allow: []string{"rclone copy ./site remote:www", "rclone sync --dry-run ./site remote:www", "rclone ls remote:backups",
				"rclone lsd remote:", "rclone check ./site remote:www", "rclone move --dry-run remote:inbox ./inbox",
				"mc ls myminio/bucket", "mc cp ./a.txt myminio/bucket/a.txt", "mc mirror ./site myminio/www", "mc admin info myminio",
				"azcopy copy ./dist 'https://acct.blob.core.windows.net/c' --recursive", "azcopy list 'https://acct.blob.core.windows.net/c'",
				"azcopy sync ./dist 'https://acct.blob.core.windows.net/c'"},
		},
		{
			ID: policy.RuleDestructiveCloud, Name: "backup-delete",
			Reason:  "removes backup snapshots or archives, or the data and keys they need",
			Instead: "list snapshots (restic snapshots, borg list, velero backup get) or try the removal with --dry-run; ask a human to remove backups",
			Match: func(c Call) bool {
				dry := c.Has("--dry-run", "-n")
				switch c.Program {
				case "restic":
					return (c.Sub("forget") || c.Sub("prune")) && !dry || c.Sub("key", "remove") || c.Sub("unlock") && c.Has("--remove-all")
				case "borg":
					return c.Sub("delete") || c.Sub("prune") && !dry || c.Sub("recreate") && !dry || c.Sub("key", "change-passphrase")
				case "velero": // Kubernetes backups
					return c.Sub("backup", "delete") || c.Sub("schedule", "delete") || c.Sub("backup-location", "delete") ||
						c.Sub("delete", "backup")
				}
				return false
			},
			Deny: []string{"restic forget --keep-last 1 --prune", "restic -r /srv/backup prune", "restic key remove 5d4c3b2a", "borg delete /srv/borg",
				"borg delete /srv/borg::monday", "borg prune --keep-daily 7 /srv/borg", "borg recreate --exclude '*.log' /srv/borg",
				"velero backup delete nightly --confirm", "velero delete backup nightly --confirm"},
			Allow: []string{"restic snapshots", "restic -r /srv/backup backup .", "restic forget --dry-run --keep-last 5", "restic check",
				"borg list /srv/borg", "borg create /srv/borg::today .", "borg prune --dry-run --list --keep-daily 7 /srv/borg", "borg compact /srv/borg",
				"velero backup get", "velero backup create before-upgrade --include-namespaces dev"},
		},
		{
			ID: policy.RuleDestructiveCloud, Name: "registry-unpublish",
			Reason:  "removes a published package version from a registry that others may depend on",
			Instead: "deprecate the old version (npm deprecate my-lib@1.2.3 'use 1.2.4'); ask a human to publish a fixed version, unpublish or yank",
			Match: func(c Call) bool {
				switch c.Program {
				case "npm", "pnpm":
					return c.Sub("unpublish")
				case "cargo":
					return c.Sub("yank") && !c.Has("--undo")
				case "gem":
					return c.Sub("yank")
				}
				return false
			},
			Deny:  []string{"npm unpublish my-lib@1.2.3", "npm unpublish my-lib --force", "pnpm unpublish my-lib@1.0.0", "cargo yank --version 1.0.1 my-crate", "gem yank my-gem -v 1.0.0"},
			Allow: []string{"npm publish --dry-run", "npm deprecate my-lib@1.2.3 'use 1.2.4'", "npm view my-lib versions", "cargo yank --undo --version 1.0.1 my-crate", "gem list"},
		},
	},
}

// brokers: message brokers' (Kafka, RabbitMQ, NATS) and secrets
// managers' (Vault, 1Password, Doppler) command-line tools. Listing and
// describing are safe; deleting topics, queues and virtual hosts, moving
// consumer offsets, and destroying secrets or whole secret engines are not.
var brokers = &Pack{
	Name: "brokers",
	Programs: []string{"kafka-topics", "kafka-topics.sh", "kafka-consumer-groups", "kafka-consumer-groups.sh",
		"kafka-delete-records", "kafka-delete-records.sh", "rabbitmqctl", "rabbitmqadmin", "nats", "vault", "op", "doppler"},
	ValueFlags: []string{"--bootstrap-server", "--topic", "--group", "--command-config", "--partitions", "--replication-factor",
		"-n", "--node", "-p", "--vhost", "-V", "-H", "--host", "-P", "--port", "-u", "--username", "--password",
		"-address", "-namespace", "-format", "-mount", "--offset-json-file", "--server", "--creds", "--context",
		"--account", "--vault", "--project", "--config"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveDatastore, Name: "broker-delete",
			Reason:  "deletes or empties topics, queues or virtual hosts, or moves consumers past messages they have not read",
			Instead: "list and describe (kafka-topics --describe, rabbitmqctl list_queues); try offset resets with --dry-run; ask a human to delete",
			Match: func(c Call) bool {
				switch strings.TrimSuffix(c.Program, ".sh") {
				case "kafka-topics":
					return c.Has("--delete")
				case "kafka-consumer-groups":
					return c.Has("--delete", "--delete-offsets") || c.Has("--reset-offsets") && c.Has("--execute")
				case "kafka-delete-records":
					return true
				case "rabbitmqctl":
					switch strings.ToLower(c.Pos(0)) {
					case "delete_vhost", "delete_queue", "purge_queue", "reset", "force_reset", "delete_user", "clear_permissions":
						return true
					}
				case "rabbitmqadmin":
					return c.Sub("delete") || c.Sub("purge")
				case "nats":
					// nats [-s URL] stream|consumer|kv|object rm|purge …
					for i, w := range c.Positional {
						switch strings.ToLower(w) {
						case "stream", "str", "consumer", "con", "kv", "object", "obj":
							verb := strings.ToLower(c.Pos(i + 1))
							return verb == "rm" || verb == "delete" || verb == "del" || verb == "purge" || verb == "rmm" || verb == "rm-msg"
						}
					}
				}
				return false
			},
			Deny: []string{"kafka-topics --bootstrap-server localhost:9092 --delete --topic orders", "kafka-topics.sh --delete --topic 'orders.*' --bootstrap-server b:9092",
				"kafka-consumer-groups --bootstrap-server b:9092 --group billing --reset-offsets --to-latest --topic orders --execute",
				"kafka-consumer-groups --bootstrap-server b:9092 --delete --group billing", "kafka-delete-records --bootstrap-server b:9092 --offset-json-file offsets.json",
				"rabbitmqctl delete_vhost /prod", "rabbitmqctl purge_queue orders", "rabbitmqctl -n rabbit@host force_reset", "rabbitmqadmin delete queue name=orders",
				"rabbitmqadmin purge queue name=orders", "nats stream rm ORDERS -f", "nats -s nats://mq:4222 stream purge ORDERS --force", "nats kv del config"},
			Allow: []string{"kafka-topics --bootstrap-server localhost:9092 --list", "kafka-topics --describe --topic orders --bootstrap-server b:9092",
				"kafka-topics --create --topic scratch --bootstrap-server b:9092",
				"kafka-consumer-groups --bootstrap-server b:9092 --group billing --reset-offsets --to-latest --topic orders --dry-run",
				"rabbitmqctl list_queues", "rabbitmqctl status", "rabbitmqadmin list queues", "nats stream ls", "nats stream info ORDERS", "nats kv get config flag"},
		},
		{
			ID: policy.RuleDestructiveDatastore, Name: "vault-destroy",
			Reason:  "destroys secret versions for good, deletes a secret's every version, or disables a secrets engine or auth method with all it holds",
			Instead: "read and list (vault kv get, vault kv list); a plain vault kv delete keeps the versions recoverable; ask a human to destroy",
			Match: func(c Call) bool {
				if c.Program != "vault" {
					return false
				}
				return c.Sub("kv", "destroy") || c.Sub("kv", "metadata", "delete") || c.Sub("secrets", "disable") || c.Sub("auth", "disable") ||
					c.Sub("lease", "revoke") && c.Has("-prefix", "-force")
			},
			Deny: []string{"vault kv destroy -versions=1,2 secret/app", "vault kv metadata delete secret/app", "vault secrets disable secret/",
				"vault auth disable userpass/", "vault lease revoke -prefix aws/creds/"},
			Allow: []string{"vault kv get secret/app", "vault kv list secret/", "vault status", "vault kv delete secret/app/flag",
				"vault kv undelete -versions=3 secret/app", "vault secrets list"},
		},
		{
			ID: policy.RuleDestructiveDatastore, Name: "secret-manager-delete",
			Reason:  "deletes secrets, vaults, projects or environments from a secrets manager (1Password, Doppler) that other services read",
			Instead: "read and list (op item get, doppler secrets get); ask a human to delete secrets",
			Match: func(c Call) bool {
				verb := strings.ToLower(c.Pos(1))
				del := verb == "delete" || verb == "rm" || verb == "remove" || verb == "del"
				switch c.Program {
				case "op":
					return del && (c.Sub("item") || c.Sub("vault") || c.Sub("document") || c.Sub("user") || c.Sub("group") || c.Sub("connect"))
				case "doppler":
					return del && (c.Sub("secrets") || c.Sub("projects") || c.Sub("configs") || c.Sub("environments") || c.Sub("enclave"))
				}
				return false
			},
			Deny:  []string{"op item delete 'prod db'", "op vault delete Infra", "doppler secrets delete API_KEY --yes", "doppler projects delete backend"},
			Allow: []string{"op item get 'prod db' --fields username", "op vault list", "doppler secrets get API_KEY --plain", "doppler projects"},
		},
	},
}
