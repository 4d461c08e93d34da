package policy

import "slices"

// Packs turns on the vendor packs (guard/packs): opt-in families of hosted
// services whose destructive CLI verbs and HTTP API calls (curl, wget,
// httpie, xh) are denied by rule destructive-service. The tool packs
// (terraform, kubernetes, cloud, ...) are always on.
type Packs struct {
	// Enable names the vendor packs to judge, or "all".
	Enable []string `toml:"enable"`
}

// PacksAll in [packs] enable turns on every vendor pack.
const PacksAll = "all"

// PackInfo names a vendor pack and the services it covers.
type PackInfo struct {
	Name   string
	Covers string
}

// VendorPacks are the opt-in packs [packs] enable may name, in
// documentation order. guard/packs holds their rules; its tests keep the
// two lists equal.
var VendorPacks = []PackInfo{
	{"payment", "Stripe, Braintree, Square"},
	{"email", "SendGrid, Mailgun, Postmark, Amazon SES"},
	{"featureflags", "LaunchDarkly, Split, Unleash, Flipt"},
	{"search", "Elasticsearch, OpenSearch, Meilisearch, Algolia"},
	{"cdn", "Fastly, Cloudflare (Workers, cache), CloudFront"},
	{"apigateway", "Kong, Apigee, AWS API Gateway"},
	{"dns", "Route 53, Cloudflare DNS, nsupdate"},
	{"loadbalancer", "HAProxy, nginx, Traefik, AWS ELB"},
	{"messaging", "NATS, RabbitMQ, Kafka, SQS/SNS"},
	{"secrets", "Vault, 1Password, Doppler, AWS Secrets Manager"},
	{"monitoring", "PagerDuty, New Relic, Datadog, Splunk, Prometheus"},
	{"backup", "restic, borg, velero, rclone"},
	{"cicd", "Jenkins, CircleCI, GitLab CI, GitHub Actions"},
}

// IsVendorPack reports whether name is a vendor pack.
func IsVendorPack(name string) bool {
	for _, p := range VendorPacks {
		if p.Name == name {
			return true
		}
	}
	return false
}

// Enabled reports whether the vendor pack name is on.
func (p Packs) Enabled(name string) bool {
	return slices.Contains(p.Enable, name) || slices.Contains(p.Enable, PacksAll)
}

func vendorPackNames() []string {
	names := make([]string, 0, len(VendorPacks)+1)
	for _, p := range VendorPacks {
		names = append(names, p.Name)
	}
	return append(names, PacksAll)
}
