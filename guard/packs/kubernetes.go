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
					kind, _, _ = strings.Cut(strings.Split(kind, ",")[0], ".")
					return wideKinds[kind]
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
			ID: policy.RuleDestructiveKubernetes, Name: "kubectl-delete-custom-resource",
			Reason:  "deletes a custom resource: its operator then deletes what the resource stands for (a database cluster, a certificate, a cloud bucket, a Kafka topic)",
			Instead: "read it with kubectl get or describe; ask a human to delete custom resources (a pod, job or other built-in object can be deleted by name)",
			Match: func(c Call) bool {
				if c.Program == "helm" || !c.Sub("delete") {
					return false
				}
				if c.Has("--dry-run") {
					return false
				}
				// kubectl delete TYPE[,TYPE] NAME... or TYPE/NAME...: the
				// kinds are the first word, or each word's part before "/".
				first := c.Pos(1)
				if !strings.Contains(first, "/") {
					return kindsCustom(first)
				}
				return c.AnyPos(1, func(w string) bool {
					kind, _, _ := strings.Cut(w, "/")
					return kindsCustom(kind)
				})
			},
			Deny: []string{"kubectl delete certificates.cert-manager.io web-tls -n prod", "kubectl delete postgrescluster hippo",
				"kubectl delete kafkatopic.kafka.strimzi.io orders", "kubectl delete prometheusrule example -n monitoring",
				"kubectl delete servicemonitors.monitoring.coreos.com api -n monitoring",
				"oc delete buckets.s3.aws.upbound.io/assets"},
			Allow: []string{"kubectl delete pod web-1", "kubectl delete deployment.apps/web -n dev", "kubectl delete job smoke-test",
				"kubectl delete pod,svc web -n dev", "kubectl get certificates.cert-manager.io -A", "kubectl get prometheusrules -n monitoring", "kubectl describe postgrescluster hippo",
				"kubectl delete postgrescluster hippo --dry-run=client", "oc delete route web -n dev", "kubectl delete hpa web"},
		},
		{
			ID: policy.RuleDestructiveKubernetes, Name: "kubectl-delete-force",
			Reason:  "deletes without waiting for the pods to stop (--force --grace-period=0): a stateful pod's replacement may start while the old one still writes",
			Instead: "delete with the default grace period (kubectl delete pod web-1), and describe a pod that will not stop",
			Match: func(c Call) bool {
				if c.Program == "helm" || !c.Sub("delete") || !c.Has("--force") {
					return false
				}
				v, _ := c.Value("--grace-period")
				return v == "0" || v == "1"
			},
			Deny:  []string{"kubectl delete pod web-1 --force --grace-period=0", "kubectl delete pod db-0 --grace-period 0 --force -n prod"},
			Allow: []string{"kubectl delete pod web-1 --grace-period=60", "kubectl delete pod web-1"},
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

// builtinKinds are the kinds (and short names) Kubernetes itself serves.
// Any other kind is a custom resource, whose operator acts on its delete.
var builtinKinds = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`pod pods po job jobs cronjob cronjobs cj configmap configmaps cm secret secrets
		service services svc deployment deployments deploy replicaset replicasets rs statefulset statefulsets sts
		daemonset daemonsets ds ingress ingresses ing endpoints ep endpointslice endpointslices event events ev
		serviceaccount serviceaccounts sa role roles rolebinding rolebindings networkpolicy networkpolicies netpol
		poddisruptionbudget poddisruptionbudgets pdb horizontalpodautoscaler horizontalpodautoscalers hpa
		limitrange limitranges limits resourcequota resourcequotas quota lease leases replicationcontroller
		replicationcontrollers rc podtemplate podtemplates controllerrevision controllerrevisions
		certificatesigningrequest certificatesigningrequests csr priorityclass priorityclasses pc ingressclass
		ingressclasses runtimeclass runtimeclasses validatingwebhookconfiguration validatingwebhookconfigurations
		mutatingwebhookconfiguration mutatingwebhookconfigurations csidriver csidrivers csinode csinodes
		volumeattachment volumeattachments apiservice apiservices all
		route routes buildconfig buildconfigs bc build builds deploymentconfig deploymentconfigs dc
		imagestream imagestreams is imagestreamtag imagestreamtags istag template templates`) {
		builtinKinds[k] = true
	}
}

// builtinGroups are the API groups of the built-in kinds: deployment.apps
// and jobs.v1.batch are built-in, certificates.cert-manager.io is not.
var builtinGroups = map[string]bool{"apps": true, "batch": true, "extensions": true, "policy": true, "autoscaling": true,
	"networking.k8s.io": true, "rbac.authorization.k8s.io": true, "coordination.k8s.io": true, "discovery.k8s.io": true,
	"storage.k8s.io": true, "scheduling.k8s.io": true, "certificates.k8s.io": true, "admissionregistration.k8s.io": true,
	"node.k8s.io": true, "events.k8s.io": true, "apiregistration.k8s.io": true, "": true,
	// OpenShift's own kinds (oc delete route web)
	"route.openshift.io": true, "build.openshift.io": true, "apps.openshift.io": true, "image.openshift.io": true,
	"template.openshift.io": true}

// customKind reports whether a kind as kubectl takes it (pod, deploy.apps,
// jobs.v1.batch, postgrescluster, certificates.cert-manager.io) names a
// custom resource. The wide kinds (namespaces, nodes, volumes, CRDs) are
// kubectl-delete-wide's.
func customKind(k string) bool {
	name, group, _ := strings.Cut(k, ".")
	if wideKinds[name] {
		return false
	}
	if v, rest, ok := strings.Cut(group, "."); ok && len(v) > 1 && v[0] == 'v' && v[1] >= '0' && v[1] <= '9' {
		group = rest // jobs.v1.batch: resource.version.group
	} else if len(group) > 1 && group[0] == 'v' && group[1] >= '0' && group[1] <= '9' && !strings.Contains(group, ".") {
		group = "" // pods.v1: the core group
	}
	return !builtinKinds[name] || !builtinGroups[group]
}

// wideKinds are the kinds whose delete takes everything inside or on them.
var wideKinds = map[string]bool{"namespace": true, "namespaces": true, "ns": true, "node": true, "nodes": true, "no": true,
	"pv": true, "persistentvolume": true, "persistentvolumes": true, "pvc": true, "persistentvolumeclaim": true,
	"persistentvolumeclaims": true, "crd": true, "crds": true, "customresourcedefinition": true, "customresourcedefinitions": true,
	"clusterrole": true, "clusterroles": true, "clusterrolebinding": true, "clusterrolebindings": true, "storageclass": true,
	"storageclasses": true, "sc": true, "project": true, "projects": true}

// kindsCustom reports whether a comma-separated list of kinds names a
// custom resource.
func kindsCustom(kinds string) bool {
	for _, k := range strings.Split(strings.ToLower(kinds), ",") {
		if k != "" && customKind(k) {
			return true
		}
	}
	return false
}
