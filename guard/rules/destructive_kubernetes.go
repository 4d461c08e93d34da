package rules

import "github.com/swarm-guard/swarm-guard/policy"

// DestructiveKubernetes: deleting namespaces, nodes, volumes or every
// object of a kind, draining nodes, pruning applies and uninstalling Helm
// releases. The patterns are the kubernetes pack's table
// (guard/packs/kubernetes.go: kubectl, oc, helm).
var DestructiveKubernetes = Rule{
	ID:      policy.RuleDestructiveKubernetes,
	Reason:  "a namespace, node, volume or release holds everything inside it, and a cluster is shared with other people and agents",
	Instead: "delete the one object you mean by name (kubectl delete pod web-0 -n dev), or ask a human",
	Deny:    []string{"kubectl delete ns prod", "kubectl drain worker-1 --ignore-daemonsets", "helm uninstall api -n prod"},
	Allow:   []string{"kubectl delete pod web-0 -n dev", "kubectl get ns"},
	Judge:   judgePackOperation(policy.RuleDestructiveKubernetes),
}
