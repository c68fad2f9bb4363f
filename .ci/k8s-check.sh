#!/usr/bin/env bash
# The Kubernetes recipe cannot run here (no cluster), so it is checked as
# far as it can be offline: every manifest against the Kubernetes 1.33 API
# schemas (kubernetes-validate, strict: an unknown or misspelt field fails),
# then what the schemas cannot know: an Indexed Job whose K agrees with
# its --shard env/K, and a merge that reads the directory the shards write.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/ci-venv
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check kubernetes-validate==1.37.0
fi
"$venv/bin/kubernetes-validate" --strict --quiet -k 1.33.0 recipes/k8s-shards.yaml recipes/k8s-merge.yaml

"$venv/bin/python" - <<'PY'
import yaml

shards = list(yaml.safe_load_all(open("recipes/k8s-shards.yaml")))
merge = yaml.safe_load(open("recipes/k8s-merge.yaml"))
job = next(d for d in shards if d["kind"] == "Job")
spec = job["spec"]
assert spec["completionMode"] == "Indexed", "the shard Job must be Indexed"
args = spec["template"]["spec"]["containers"][0]["args"]
shard = args[args.index("--shard") + 1]
assert shard == f"env/{spec['completions']}", f"--shard {shard} but completions {spec['completions']}"
out_dir = args[args.index("--out-dir") + 1]
merge_args = merge["spec"]["template"]["spec"]["containers"][0]["args"]
assert merge_args[:2] == ["merge", out_dir], f"merge reads {merge_args[1]}, shards write {out_dir}"
claims = {v["persistentVolumeClaim"]["claimName"]
          for d in (job, merge) for v in d["spec"]["template"]["spec"]["volumes"]}
assert claims == {"queens-results"}, claims
print(f"k8s-check: Indexed Job of {spec['completions']} shards and its merge agree")
PY
