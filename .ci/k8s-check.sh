#!/usr/bin/env bash
# The Kubernetes recipe cannot run here (no cluster), so it is checked as
# far as it can be offline: every manifest against the Kubernetes 1.33 API
# schemas (kubernetes-validate, strict: an unknown or misspelt field fails;
# 1.33 is the oldest version the recipe supports, the first with
# backoffLimitPerIndex GA, and everything it uses is still in the newest
# schemas, checked too), then what the schemas cannot know (below), then
# k8s-run.sh's wait-and-merge procedure against a fake kubectl
# (.ci/k8s-run-test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/ci-venv
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check kubernetes-validate==1.37.0
fi
for version in 1.33.0 1.37.0; do
  "$venv/bin/kubernetes-validate" --strict --quiet -k "$version" recipes/k8s-shards.yaml recipes/k8s-merge.yaml
done

"$venv/bin/python" - <<'PY'
import re

import yaml


def check(ok, why):
    if not ok:
        raise SystemExit(f"k8s-check: {why}")


shards_text = open("recipes/k8s-shards.yaml").read()
shards = list(yaml.safe_load_all(shards_text))
merge = yaml.safe_load(open("recipes/k8s-merge.yaml"))
job = next(d for d in shards if d["kind"] == "Job")
claim = next(d for d in shards if d["kind"] == "PersistentVolumeClaim")
spec = job["spec"]
pod = spec["template"]["spec"]
container = pod["containers"][0]
args = container["args"]


def arg(args, flag):
    check(flag in args, f"the shard Job's args have no {flag}")
    return args[args.index(flag) + 1]


# K and the directories.
check(spec["completionMode"] == "Indexed", "the shard Job must be Indexed")
shard = arg(args, "--shard")
check(shard == f"env/{spec['completions']}", f"--shard {shard} but completions {spec['completions']}")
out_dir = arg(args, "--out-dir")
n = args[1]
check(out_dir.endswith(f"/queens-{n}-of-{spec['completions']}"), f"--out-dir {out_dir} is not named by N and K")
merge_pod = merge["spec"]["template"]["spec"]
merge_args = merge_pod["containers"][0]["args"]
check(merge_args[:2] == ["merge", out_dir], f"merge reads {merge_args[1]}, shards write {out_dir}")
claims = {v["persistentVolumeClaim"]["claimName"] for p in (pod, merge_pod) for v in p["volumes"]}
check(claims == {claim["metadata"]["name"]}, f"the Jobs mount {claims}, the claim is {claim['metadata']['name']}")

# Failures: disruptions are not counted, exit code 2 fails the index at once.
# FailIndex needs backoffLimitPerIndex; any podFailurePolicy needs restartPolicy Never.
check(spec.get("backoffLimitPerIndex", 0) >= 1, "no backoffLimitPerIndex")
check(pod["restartPolicy"] == "Never", "podFailurePolicy requires restartPolicy: Never")
rules = spec.get("podFailurePolicy", {}).get("rules", [])
check(any(r["action"] == "Ignore"
          and {"type": "DisruptionTarget", "status": "True"} in r.get("onPodConditions", [])
          for r in rules), "no podFailurePolicy rule ignoring DisruptionTarget")
check(any(r["action"] == "FailIndex"
          and r.get("onExitCodes", {}).get("operator") == "In"
          and 2 in r["onExitCodes"].get("values", [])
          and r["onExitCodes"].get("containerName") in (None, container["name"])
          for r in rules), "no podFailurePolicy rule failing the index on exit code 2")
check("--lock-wait" in args, "a replaced pod's count has no --lock-wait")

# Threads from the CPU request, through the downward API.
threads = arg(args, "--threads")
var = re.fullmatch(r"\$\((\w+)\)", threads)
check(var is not None, f"--threads {threads} does not come from an env var")
env = {e["name"]: e for e in container.get("env", [])}
ref = env.get(var.group(1), {}).get("valueFrom", {}).get("resourceFieldRef", {})
check(ref.get("resource") == "requests.cpu" and str(ref.get("divisor")) == "1"
      and ref.get("containerName") in (None, container["name"]),
      f"${var.group(1)} is not the container's CPU request in whole CPUs")
check("cpu" in container["resources"]["requests"], "the shard container requests no CPU")

# Non-root, with the image's uid/gid, and a volume that uid can write.
user = re.search(r"^USER\s+(\d+):(\d+)\s*$", open("recipes/Dockerfile").read(), re.M)
check(user is not None, "recipes/Dockerfile has no numeric USER uid:gid")
uid, gid = map(int, user.groups())
check(uid != 0, "the image runs as root")
for name, p in (("shards", pod), ("merge", merge_pod)):
    sc = p.get("securityContext", {})
    check(sc.get("runAsNonRoot") is True, f"the {name} pod lacks runAsNonRoot: true")
    check((sc.get("runAsUser"), sc.get("runAsGroup"), sc.get("fsGroup")) == (uid, gid, gid),
          f"the {name} pod's runAsUser/runAsGroup/fsGroup are not the image's {uid}:{gid}")

# Storage: ReadWriteMany, with a class named (a placeholder the user sets).
check(claim["spec"]["accessModes"] == ["ReadWriteMany"], "the results claim is not ReadWriteMany")
check(claim["spec"].get("storageClassName"), "the results claim names no storageClassName")

# The procedure: k8s-run.sh waits for Complete or Failed; no bare wait for complete.
check("k8s-run.sh" in shards_text, "k8s-shards.yaml does not send users to k8s-run.sh")
for line in shards_text.splitlines():
    check(not re.match(r"#\s+kubectl wait --for=condition=complete", line),
          f"k8s-shards.yaml still tells users to `{line[1:].strip()}`, which waits forever on a Failed Job")
print(f"k8s-check: Indexed Job of {spec['completions']} shards and its merge agree;"
      f" podFailurePolicy, non-root {uid}:{gid} with fsGroup, threads from requests.cpu,"
      f" storage class {claim['spec']['storageClassName']!r} (a placeholder to set)")
PY

bash .ci/k8s-run-test.sh
