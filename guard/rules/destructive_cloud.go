package rules

import "github.com/swarm-guard/swarm-guard/policy"

// DestructiveCloud: deleting and terminating cloud resources, recursive
// removal from remote storage, backup removal and unpublishing packages.
// The patterns are the cloud and storage packs' tables
// (guard/packs/cloud.go: aws, gcloud, gsutil, az; guard/packs/storage.go:
// rclone, restic, borg, package registries).
var DestructiveCloud = Rule{
	ID:      policy.RuleDestructiveCloud,
	Reason:  "cloud resources, remote storage and backups deleted by an agent are gone for everyone, usually without a way back",
	Instead: "read with the describe, list and get commands; ask a human to delete cloud resources",
	Deny:    []string{"aws s3 rm s3://bucket --recursive", "gcloud projects delete my-proj", "az group delete -n rg-prod --yes"},
	Allow:   []string{"aws s3 ls s3://bucket", "aws s3 rm s3://bucket/tmp/one.txt"},
	Judge:   judgePackOperation(policy.RuleDestructiveCloud),
}
