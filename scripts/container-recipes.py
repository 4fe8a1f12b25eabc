#!/usr/bin/env python3
"""Runs the container recipes of the documentation as written, with podman standing in for docker
(scripts/test-container.sh calls it; docs/ci.md says what each recipe's test does and does not do):

- every ```sh container``` block of README.md, docs/install.md and docs/ci.md, each file's blocks in order
  as one script, in a scratch directory that holds what a tester's repository would (flow.json,
  state.json, tpp/: the repository's own fixtures), with only the host port changed
  (127.0.0.1:8080 -> a free one, as tests/api/readme.rs does);
- the ```yaml github-actions``` workflow: actionlint, its service started from `services:` and waited for
  by its health check, its `run:` steps, and the file its upload step names;
- the ```yaml gitlab-ci``` job: its service from `services:`, its `script:` lines with the alias standing
  for the published port and the image's CLI on the PATH in place of `before_script`'s download, and the
  JUnit report it names;
- the ```yaml kubernetes``` manifest with `podman kube play` (a hostPort added on 127.0.0.1, the only
  change): /health, the Secret's token, data kept across a replay of the pod on the same claim.

Usage: python3 scripts/container-recipes.py --image NAME --cli PATH (the host's xs2a-sandbox)
Every name it uses is the documentation's (the container xs2a-sandbox, the volumes xs2a-data,
xs2a-sandbox-data, -operator and -tmp, the secret xs2a-sandbox-operator): it refuses to start when one exists already, and removes them at the end.
"""

import argparse
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS_CONTAINERS = ["xs2a-sandbox", "xs2a-ci-gha-xs2a-sandbox", "xs2a-ci-gitlab"]
# The claim's volume, and the two podman 4.3 makes for the Secret and the emptyDir.
DOCS_VOLUMES = ["xs2a-data", "xs2a-sandbox-data", "xs2a-sandbox-operator", "xs2a-sandbox-tmp"]
DOCS_SECRET = "xs2a-sandbox-operator"
failures = []


def say(ok, description, detail=""):
    print(f"  {'ok  ' if ok else 'FAIL'} {description}")
    if not ok:
        failures.append(description)
        if detail:
            print("       " + detail.strip().replace("\n", "\n       ")[-3000:])


def podman(*args, check=True, capture=True):
    result = subprocess.run(["podman", *args], capture_output=capture, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"podman {' '.join(args)}: {result.stderr}")
    return result


def blocks(path, info):
    """The fenced blocks of `path` whose info string is `info`, in order."""
    found, current = [], None
    with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
        for line in handle.read().splitlines():
            if current is None and line.strip() == f"```{info}":
                current = []
            elif current is not None and line.strip() == "```":
                found.append("\n".join(current) + "\n")
                current = None
            elif current is not None:
                current.append(line)
    return found


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def workspace(root):
    """A tester's repository: a flow recorded from the seed, its certificate, a state file."""
    shutil.copy(os.path.join(ROOT, "fixtures/flows/private-ais.json"), os.path.join(root, "flow.json"))
    shutil.copy(os.path.join(ROOT, "fixtures/state/initial.json"), os.path.join(root, "state.json"))
    shutil.copytree(os.path.join(ROOT, "fixtures/certs/aisp-pisp"), os.path.join(root, "tpp"))
    return root


def docker_shim(root):
    """A `docker` on the PATH that is podman."""
    bin_dir = os.path.join(root, "shim")
    os.makedirs(bin_dir)
    path = os.path.join(bin_dir, "docker")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write('#!/bin/sh\nexec podman "$@"\n')
    os.chmod(path, 0o755)
    return bin_dir


def get(url, token=None, method="GET", body=None):
    request = urllib.request.Request(url, method=method, data=body)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except OSError as error:
        return 0, str(error)


def wait_health(url, tries=150):
    """Until /health answers UP through the published port (bounded by tries)."""
    for _ in range(tries):
        status, body = get(f"{url}/health")
        if status == 200 and '"UP"' in body:
            return True
        time.sleep(0.2)
    return False


def wait_healthy(container, tries=150):
    """Until the image's own health check passes, as GitHub's runner waits for a service."""
    for _ in range(tries):
        if podman("healthcheck", "run", container, check=False).returncode == 0:
            return True
        time.sleep(0.2)
    return False


def remove_docs_names():
    for name in DOCS_CONTAINERS:
        podman("rm", "-f", "-v", "-t", "0", name, check=False)
    podman("pod", "rm", "-f", "xs2a-sandbox-pod-0", check=False)
    for name in DOCS_VOLUMES:
        podman("volume", "rm", "-f", name, check=False)
    podman("secret", "rm", DOCS_SECRET, check=False)


def run_shell_blocks(path, args, scratch, env):
    """One file's ```sh container``` blocks as one script, port changed, in a tester's workspace."""
    port = free_port()
    script = "set -euo pipefail\n" + "\n".join(blocks(path, "sh container"))
    script = script.replace("127.0.0.1:8080", f"127.0.0.1:{port}")
    root = workspace(tempfile.mkdtemp(dir=scratch))
    result = subprocess.run(["bash", "-c", script], cwd=root, env=env, capture_output=True, text=True,
                            timeout=600)
    output = result.stdout + result.stderr
    say(result.returncode == 0, f"{path}: its container commands run as written", output)
    return root, output


def check_shell_recipes(args, scratch, env):
    for path in ["README.md", "docs/install.md"]:
        if not blocks(path, "sh container"):
            say(False, f"{path}: no ```sh container``` block")
            continue
        _, output = run_shell_blocks(path, args, scratch, env)
        say("workbench: http://127.0.0.1:" in output, f"{path}: the log shows the workbench's URL on the host", output)
        remove_docs_names()
    root, output = run_shell_blocks("docs/ci.md", args, scratch, env)
    say("Kari Nordmann" in output, "docs/ci.md: the signed call through the port", output)
    report = os.path.join(root, "replay-junit.xml")
    say(os.path.exists(report) and 'failures="0"' in open(report, encoding="utf-8").read(),
        "docs/ci.md: the replay's JUnit report, every step passed")
    remove_docs_names()


def check_github_actions(args, scratch, env):
    text = blocks("docs/ci.md", "yaml github-actions")[0]
    root = workspace(tempfile.mkdtemp(dir=scratch))
    workflow = os.path.join(root, "workflow.yml")
    with open(workflow, "w", encoding="utf-8") as handle:
        handle.write(text)
    actionlint = os.path.join(ROOT, "target/actionlint-venv/bin/actionlint")
    if os.path.exists(actionlint):
        lint = subprocess.run([actionlint, workflow], capture_output=True, text=True)
        say(lint.returncode == 0, "GitHub Actions: actionlint", lint.stdout + lint.stderr)
    else:
        print("  (actionlint not installed here: .ci/run's workflows step installs it)")
    port = free_port()
    job = next(iter(yaml.safe_load(text)["jobs"].values()))
    for name, service in job["services"].items():
        options = ["run", "-d", "--name", f"xs2a-ci-gha-{name}", "--health-interval=disable"]
        for published in service.get("ports", []):
            options += ["-p", str(published).replace("127.0.0.1:8080:", f"127.0.0.1:{port}:")]
        for key, value in service.get("env", {}).items():
            options += ["-e", f"{key}={value}"]
        podman(*options, service["image"])
        say(wait_healthy(f"xs2a-ci-gha-{name}"), f"GitHub Actions: the service {name} healthy")
    for step in job["steps"]:
        if "run" in step:
            script = step["run"].replace("127.0.0.1:8080", f"127.0.0.1:{port}")
            result = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                                    cwd=root, env=env, capture_output=True, text=True, timeout=600)
            say(result.returncode == 0, f"GitHub Actions: step '{step.get('name', script[:40])}'",
                result.stdout + result.stderr)
        elif step["uses"].startswith("actions/upload-artifact"):
            path = os.path.join(root, step["with"]["path"])
            say(os.path.exists(path) and 'failures="0"' in open(path, encoding="utf-8").read(),
                f"GitHub Actions: the artifact {step['with']['path']} exists, every step passed")
        elif not step["uses"].startswith("actions/checkout"):
            say(False, f"GitHub Actions: a step this test cannot stand in for: {step['uses']}")
    remove_docs_names()


def check_gitlab(args, scratch, env):
    text = blocks("docs/ci.md", "yaml gitlab-ci")[0]
    job = next(iter(yaml.safe_load(text).values()))
    root = workspace(tempfile.mkdtemp(dir=scratch))
    port = free_port()
    service = job["services"][0]
    alias = f"{service['alias']}:8080"
    options = ["run", "-d", "--name", "xs2a-ci-gitlab", "--health-interval=disable",
               "-p", f"127.0.0.1:{port}:8080"]
    for key, value in service.get("variables", {}).items():
        options += ["-e", f"{key}={value}"]
    podman(*options, service["name"])
    say(wait_health(f"http://127.0.0.1:{port}"), "GitLab CI: the service answers")
    job_env = dict(env)
    job_env["PATH"] = os.path.dirname(args.cli) + os.pathsep + env["PATH"]
    for key, value in job.get("variables", {}).items():
        job_env[key] = str(value).replace(alias, f"127.0.0.1:{port}")
    script = "set -e\n" + "\n".join(job["script"])
    result = subprocess.run(["bash", "-c", script], cwd=root, env=job_env, capture_output=True, text=True,
                            timeout=600)
    say(result.returncode == 0, "GitLab CI: the script lines", result.stdout + result.stderr)
    report = os.path.join(root, job["artifacts"]["reports"]["junit"])
    say(os.path.exists(report) and 'failures="0"' in open(report, encoding="utf-8").read(),
        "GitLab CI: the JUnit report, every step passed")
    remove_docs_names()


def check_kubernetes(args, scratch):
    documents = list(yaml.safe_load_all(blocks("docs/ci.md", "yaml kubernetes")[0]))
    encoded = next(d for d in documents if d["kind"] == "Secret")["data"]["token"]
    token = base64.b64decode(encoded).decode()
    deployment = next(d for d in documents if d["kind"] == "Deployment")
    port = free_port()
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    for published in container["ports"]:
        published.update({"hostIP": "127.0.0.1", "hostPort": port})
    manifest = os.path.join(tempfile.mkdtemp(dir=scratch), "sandbox.yaml")
    with open(manifest, "w", encoding="utf-8") as handle:
        yaml.safe_dump_all(documents, handle)
    base = f"http://127.0.0.1:{port}"
    played = podman("kube", "play", manifest, check=False)
    say(played.returncode == 0, "Kubernetes: podman kube play", played.stdout + played.stderr)
    say(wait_health(base), "Kubernetes: the pod answers /health")
    status, body = get(f"{base}/workbench/api/session", token)
    if status == 401:
        # podman 4.3 mounts the Secret's data undecoded, where a cluster decodes it.
        status, body = get(f"{base}/workbench/api/session", encoded)
        token = encoded
        print("  (podman mounted the Secret's data base64-encoded, as podman 4.3 does)")
    say(status == 200 and '"mode":"shared"' in body, "Kubernetes: the Secret's token opens the workbench API, shared", body)
    customer = json.dumps({"customerNumber": "01078900497", "name": "Fiona Kube", "type": "private"}).encode()
    status, body = get(f"{base}/workbench/api/sandbox/customers", token, "POST", customer)
    say(status == 201, "Kubernetes: a customer created", body)
    pod_container = f"xs2a-sandbox-pod-0-{container['name']}"
    user = podman("inspect", "--format", "{{.Config.User}} {{.HostConfig.ReadonlyRootfs}}", pod_container,
                  check=False).stdout.strip()
    say(user.startswith("10001") and user.endswith("true"), "Kubernetes: uid 10001, read-only root", user)
    # The pod replayed as a cluster replaces it: the claim's volume kept, the Deployment played alone
    # (podman 4.3 refuses a manifest whose claim's volume exists: podman issue 16348, fixed in 4.4).
    podman("kube", "down", manifest, check=False)
    for volume in ["xs2a-sandbox-operator", "xs2a-sandbox-tmp"]:
        podman("volume", "rm", "-f", volume, check=False)
    deployment_only = os.path.join(os.path.dirname(manifest), "deployment.yaml")
    with open(deployment_only, "w", encoding="utf-8") as handle:
        yaml.safe_dump(deployment, handle)
    replayed = podman("kube", "play", deployment_only, check=False)
    say(replayed.returncode == 0, "Kubernetes: the pod replayed on the same claim", replayed.stdout + replayed.stderr)
    say(wait_health(base), "Kubernetes: the new pod answers /health")
    status, body = get(f"{base}/workbench/api/sandbox/customers", token)
    say("Fiona Kube" in body, "Kubernetes: the customer is still there after the pod's replay", body)
    podman("kube", "down", manifest, check=False)
    remove_docs_names()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--image", required=True)
    parser.add_argument("--cli", required=True)
    args = parser.parse_args()
    args.cli = os.path.abspath(args.cli)
    taken = [n for n in DOCS_CONTAINERS if podman("container", "exists", n, check=False).returncode == 0]
    taken += [n for n in DOCS_VOLUMES if podman("volume", "exists", n, check=False).returncode == 0]
    if DOCS_SECRET in podman("secret", "ls", "--format", "{{.Name}}").stdout.split():
        taken.append(f"the secret {DOCS_SECRET}")
    if taken:
        sys.exit(f"container-recipes.py: {', '.join(taken)} exist already: the documentation's commands use "
                 "these names; remove them or run this elsewhere")
    scratch = tempfile.mkdtemp()
    env = dict(os.environ)
    env["PATH"] = docker_shim(scratch) + os.pathsep + env["PATH"]
    try:
        check_shell_recipes(args, scratch, env)
        check_github_actions(args, scratch, env)
        check_gitlab(args, scratch, env)
        check_kubernetes(args, scratch)
    finally:
        remove_docs_names()
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"  recipes: {len(failures)} failed" + (f": {', '.join(failures)}" if failures else ""))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
