"""Schemathesis hooks for scripts/fuzz-openapi.sh: every request is signed as a TPP signs it, and every
workbench API request carries the operator token, so that generated requests reach the handlers instead of
stopping at the gate.

Signing happens on the prepared request, the last step before the wire (requests' HTTPAdapter.send): that is
the only place where the exact path, query and body bytes are known, and a signature over anything else
would be refused by the sandbox. The TPP's certificate header and keyId come from one run of
`xs2a-sandbox sign` against the bundled test TPP (fixtures/certs/aisp-pisp), so they are the sandbox's own;
the per-request RSA signature is made here with the `cryptography` package (one `sign` process per request
would cost more than the requests themselves).

Environment: XS2A_FUZZ_BIN (the xs2a-sandbox binary), XS2A_FUZZ_CERT_DIR (cert.pem and key.pem),
XS2A_OPERATOR_TOKEN (the token the service was started with).
"""

import base64
import email.utils
import hashlib
import os
import re
import subprocess
import uuid
from urllib.parse import urlsplit

import requests.adapters
import schemathesis
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

CERT_DIR = os.environ["XS2A_FUZZ_CERT_DIR"]
TOKEN = os.environ["XS2A_OPERATOR_TOKEN"]

# The headers a TPP signs when present, in the sandbox's order (signing::verifier::SIGNING_CANDIDATES).
SIGNED_WHEN_PRESENT = ["date", "digest", "x-request-id", "psu-id", "psu-corporate-id", "tpp-redirect-uri"]
# What the signer writes itself: generated values for these would only be refused by the gate.
WRITTEN_BY_SIGNER = ["date", "digest", "signature", "tpp-signature-certificate"]


def _sandbox_identity():
    """The TPP-Signature-Certificate value and the keyId, as `xs2a-sandbox sign` writes them."""
    printed = subprocess.run(
        [os.environ["XS2A_FUZZ_BIN"], "sign", "--cert-dir", CERT_DIR, "--url", "http://127.0.0.1/health"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    headers = dict(line.split(": ", 1) for line in printed.splitlines() if ": " in line)
    key_id = re.search(r'keyId="([^"]*)"', headers["Signature"]).group(1)
    return headers["TPP-Signature-Certificate"], key_id


CERTIFICATE, KEY_ID = _sandbox_identity()
with open(os.path.join(CERT_DIR, "key.pem"), "rb") as key_file:
    KEY = serialization.load_pem_private_key(key_file.read(), password=None)


def _drop(headers, name):
    for present in [h for h in headers if h.lower() == name]:
        del headers[present]


def _value(headers, name):
    for present, value in headers.items():
        if present.lower() == name:
            return value.decode("latin-1") if isinstance(value, bytes) else value
    return None


def sign(request):
    """Adds Date, Digest (with a body), X-Request-ID (when absent), the certificate and the Signature."""
    headers = request.headers
    for name in WRITTEN_BY_SIGNER:
        _drop(headers, name)
    headers["Date"] = email.utils.formatdate(usegmt=True)
    body = request.body or b""
    if isinstance(body, str):
        body = body.encode("utf-8")
    if body:
        headers["Digest"] = "SHA-256=" + base64.b64encode(hashlib.sha256(body).digest()).decode()
    if _value(headers, "x-request-id") is None:
        headers["X-Request-ID"] = str(uuid.uuid4())
    headers["TPP-Signature-Certificate"] = CERTIFICATE
    names = ["(request-target)"] + [n for n in SIGNED_WHEN_PRESENT if _value(headers, n) is not None]
    lines = []
    for name in names:
        if name == "(request-target)":
            lines.append(f"(request-target): {request.method.lower()} {request.path_url}")
        else:
            lines.append(f"{name}: {_value(headers, name)}")
    signed = KEY.sign("\n".join(lines).encode("latin-1", "replace"), padding.PKCS1v15(), hashes.SHA256())
    headers["Signature"] = (
        f'keyId="{KEY_ID}",algorithm="rsa-sha256",headers="{" ".join(names)}",'
        f'signature="{base64.b64encode(signed).decode()}"'
    )


_send = requests.adapters.HTTPAdapter.send


def _signed_send(self, request, *args, **kwargs):
    path = urlsplit(request.url).path
    if path.startswith("/workbench/api"):
        _drop(request.headers, "authorization")
        request.headers["Authorization"] = f"Bearer {TOKEN}"
    elif not path.startswith("/workbench"):
        sign(request)
    return _send(self, request, *args, **kwargs)


requests.adapters.HTTPAdapter.send = _signed_send


def _plain_tuples(node):
    """`prefixItems` tuples (OpenAPI 3.1, JSON Schema 2020-12) as arrays of their one item type, sized."""
    if isinstance(node, dict):
        items = node.get("prefixItems")
        if isinstance(items, list) and items and all(i == items[0] for i in items):
            del node["prefixItems"]
            node["items"] = items[0]
            node.setdefault("minItems", len(items))
            node.setdefault("maxItems", len(items))
        for value in node.values():
            _plain_tuples(value)
    elif isinstance(node, list):
        for value in node:
            _plain_tuples(value)


@schemathesis.hook
def before_load_schema(ctx, raw_schema):
    """Schemathesis 4.32 turns 3.1's `prefixItems` into draft-4 tuple `items` and then refuses them as
    not a 3.1 schema object when it validates an answer (every `[name, value]` header pair). The
    document is valid 3.1 (scripts/test-openapi-client.sh validates it); the fuzzer's copy states the
    same pairs as two-item arrays of strings, which it reads."""
    _plain_tuples(raw_schema)
