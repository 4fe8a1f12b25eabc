#!/usr/bin/env python3
"""An independent TPP signer: signs one request from the bank's signing rules alone
(docs/interface.md#signing-every-request), with the Python standard library and the `openssl` command,
sharing no code with the sandbox. The API test tests/api/gate_known_answers.rs runs it and sends what it
prints to the real gate.

Usage: sign.py --cert-dir DIR --method M --target PATH?QUERY --now UNIX_SECONDS [--body TEXT]
               [--request-id ID]
Prints JSON: {"headers": [[name, value], ...], "signing_string": "..."}.
"""

import argparse
import base64
import email.utils
import hashlib
import json
import os
import re
import subprocess
import sys


def openssl(*args, data=None):
    """Runs openssl; a missing or failing openssl ends the script with an error (the test fails)."""
    done = subprocess.run(["openssl", *args], input=data, capture_output=True, check=False)
    if done.returncode != 0:
        sys.exit("openssl %s failed: %s" % (" ".join(args), done.stderr.decode(errors="replace")))
    return done.stdout


def certificate_der(pem_text):
    """Rule 3: the certificate, base64 encoded: the DER inside the PEM armour."""
    match = re.search(r"-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", pem_text, re.S)
    if not match:
        sys.exit("no certificate in the PEM file")
    return base64.b64decode("".join(match.group(1).split()))


def key_id(cert_path):
    """Rule 5: SN=<upper-case hex serial>,CA=<issuer per RFC 2253>, both as openssl prints them."""
    serial = openssl("x509", "-in", cert_path, "-noout", "-serial").decode().strip()
    serial = serial.split("=", 1)[1].upper().lstrip("0") or "0"
    issuer = openssl("x509", "-in", cert_path, "-noout", "-issuer", "-nameopt", "RFC2253")
    issuer = issuer.decode().strip().split("=", 1)[1]
    return "SN=%s,CA=%s" % (serial, issuer)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert-dir", required=True)
    parser.add_argument("--method", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--now", required=True, type=int)
    parser.add_argument("--body", default="")
    parser.add_argument("--request-id", default="5f2a0b9e-8d3c-4b1a-9e6f-2c7d8a4b3e10")
    args = parser.parse_args()

    cert_path = os.path.join(args.cert_dir, "cert.pem")
    key_path = os.path.join(args.cert_dir, "key.pem")
    with open(cert_path, encoding="ascii") as handle:
        certificate = certificate_der(handle.read())
    body = args.body.encode("utf-8")

    # Rule 2 and RFC 7231: an IMF-fixdate in GMT.
    headers = [("Date", email.utils.formatdate(args.now, usegmt=True))]
    if body:
        # Rule 11: the algorithm name, "=", the base64 of the body's hash.
        headers.append(("Digest", "SHA-256=" + base64.b64encode(hashlib.sha256(body).digest()).decode()))
        headers.append(("Content-Type", "application/json"))
    headers.append(("X-Request-ID", args.request_id))
    headers.append(("TPP-Signature-Certificate", base64.b64encode(certificate).decode()))

    # Rule 7: (request-target), then the candidates the request carries, lower case, in rule 7's order.
    candidates = ["date", "digest", "x-request-id", "psu-id", "psu-corporate-id", "tpp-redirect-uri"]
    carried = {name.lower(): value for name, value in headers}
    signed = ["(request-target)"] + [name for name in candidates if name in carried]
    # Rule 8: one "name: value" line per signed header, joined by newlines (no trailing newline).
    lines = []
    for name in signed:
        if name == "(request-target)":
            lines.append("(request-target): %s %s" % (args.method.lower(), args.target))
        else:
            lines.append("%s: %s" % (name, carried[name]))
    signing_string = "\n".join(lines)

    # Rule 9: Base64(RSA-SHA256(signing string)), PKCS#1 v1.5, by openssl.
    signature = openssl("dgst", "-sha256", "-sign", key_path, data=signing_string.encode("utf-8"))
    # Rule 4: keyId, algorithm, headers, signature, each key="value", joined by commas.
    headers.append((
        "Signature",
        'keyId="%s",algorithm="rsa-sha256",headers="%s",signature="%s"'
        % (key_id(cert_path), " ".join(signed), base64.b64encode(signature).decode()),
    ))
    json.dump({"headers": headers, "signing_string": signing_string}, sys.stdout)


if __name__ == "__main__":
    main()
