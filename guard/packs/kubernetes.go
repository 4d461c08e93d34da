package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/policy"
)

// kubernetes: kubectl, oc and helm. Reading and describing are safe; removing
// namespaces, nodes, volumes or everything of a kind, draining nodes and
// uninstalling releases is not.
var kubernetes = &Pack{
	Name:     "kubernetes",
	Programs: []string{"kubectl", "oc", "helm"},
	ValueFlags: []string{"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-l", "--selector",
		"-o", "--output", "-f", "--filename", "-c", "--container", "--kube-context", "--grace-period", "--timeout"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveKubernetes, Name: "kubectl-delete-wide",
			Reason:  "deletes a namespace, node, volume or custom resource definition, every object of a kind, or objects only known at run time: everything inside goes with it",
			Instead: "delete the one object you mean by name (kubectl delete pod web-0 -n dev), or ask a human",
			Match: func(c Call) bool {
				if c.Program == "helm" || !c.Sub("delete") {
					return false
				}
				if c.Has("--all", "-A", "--all-namespaces") {
					return true
				}
				// The kind only known at run time (kubectl delete "$RES"):
				// it may be ns/prod as well as pod/web-0.
				if c.PosDynamic(1) {
					return true
				}
				// -f - deletes whatever manifests arrive on stdin (kustomize
				// build | kubectl delete -f -): namespaces included, unseen.
				if v, ok := c.Value("-f", "--filename"); ok && (v == "-" || v == "") {
					return true
				}
				return c.AnyPos(1, func(w string) bool {
					kind, _, _ := strings.Cut(strings.ToLower(w), "/")
					kind = strings.Split(kind, ",")[0]
					switch kind {
					case "namespace", "namespaces", "ns", "node", "nodes", "no", "pv", "persistentvolume", "persistentvolumes",
						"pvc", "persistentvolumeclaim", "persistentvolumeclaims", "crd", "crds", "customresourcedefinition",
						"customresourcedefinitions", "clusterrole", "clusterrolebinding", "storageclass", "sc":
						return true
					}
					return false
				})
			},
			Deny: []string{"kubectl delete ns prod", "kubectl delete namespace staging", "kubectl delete pods --all -n prod",
				"kubectl delete deploy --all-namespaces --all", "kubectl -n prod delete pvc data-db-0", "oc delete project/x node/worker-1",
				"kubectl delete crd certificates.cert-manager.io", "kubectl delete -f -", "kubectl delete --filename=- -n prod",
				"kubectl delete \"$RESOURCE\"", "kubectl delete $(kubectl get ns -o name | grep preview)"},
			Allow: []string{"kubectl delete pod web-0 -n dev", "kubectl get ns", "kubectl describe node worker-1", "kubectl get pvc -A", "kubectl delete -f k8s/job-smoke.yaml",
				"kubectl delete pod \"$POD\" -n dev", "kubectl -n \"$NS\" delete job smoke-test"},
		},
		{
			ID: policy.RuleDestructiveKubernetes, Name: "kubectl-drain",
			Reason:  "evicts every pod from a node",
			Instead: "ask a human to drain nodes; read node state with kubectl describe node",
			Match:   func(c Call) bool { return c.Program != "helm" && c.Sub("drain") },
			Deny:    []string{"kubectl drain worker-1 --ignore-daemonsets", "oc drain node-2 --force"},
			Allow:   []string{"kubectl top node", "kubectl get nodes -o wide"},
		},
		{
			ID: policy.RuleDestructiveKubernetes, Name: "kubectl-scale-all-to-zero",
			Reason:  "scales every workload of a kind (or of every namespace) down to zero: the services stop",
			Instead: "scale the one workload you mean by name (kubectl scale deploy/web --replicas=0 -n dev), or ask a human",
			Match: func(c Call) bool {
				if c.Program == "helm" || !c.Sub("scale") || !c.Has("--all", "-A", "--all-namespaces") {
					return false
				}
				v, _ := c.Value("--replicas")
				return v == "0" || v == ""
			},
			Deny:  []string{"kubectl scale deploy --all --replicas=0 -n prod", "kubectl scale statefulset -A --all --replicas 0"},
			Allow: []string{"kubectl scale deploy/web --replicas=0 -n dev", "kubectl scale deploy --all --replicas=2 -n dev"},
		},
		{
			ID: policy.RuleDestructiveKubernetes, Name: "kubectl-apply-prune",
			Reason:  "deletes every object of the selected kinds that is not in the applied files",
			Instead: "apply without --prune and delete objects one by one by name",
			Match: func(c Call) bool {
				return c.Program != "helm" && c.Sub("apply") && c.Has("--prune")
			},
			Deny:  []string{"kubectl apply -f k8s/ --prune -l app=web", "kubectl apply --prune --all -f ."},
			Allow: []string{"kubectl apply -f k8s/ -n dev", "kubectl diff -f k8s/"},
		},
		{
			ID: policy.RuleDestructiveKubernetes, Name: "helm-uninstall",
			Reason:  "uninstalls a Helm release and deletes every object it created",
			Instead: "ask a human to uninstall releases; helm status and helm history read them",
			Match: func(c Call) bool {
				return c.Program == "helm" && (c.Sub("uninstall") || c.Sub("delete") || c.Sub("del") || c.Sub("un"))
			},
			Deny:  []string{"helm uninstall api -n prod", "helm delete api", "helm --kube-context prod un web"},
			Allow: []string{"helm list -A", "helm status api -n prod", "helm template ./chart", "helm upgrade --install api ./chart -n dev --dry-run"},
		},
	},
}
