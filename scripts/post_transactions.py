"""Posts one signed transaction to a seeded account N times over one keep-alive connection, for
scripts/measure-journal-cost.sh. The request is signed once with the service's own `sign` command (the same
request is appended again each time: transactions are not deduplicated).
Usage: python3 scripts/post_transactions.py BIN HOST:PORT N
"""
import json
import os
import socket
import subprocess
import sys

BIN, AUTHORITY, COUNT = sys.argv[1], sys.argv[2], int(sys.argv[3])
CERTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "certs", "aisp-pisp")
BODY = (
    b'[{"amount":-1250,"currency":"NOK","bookingDate":"2026-06-01","valueDate":"2026-06-01",'
    b'"remittanceInformationUnstructured":"bench","creditorName":"Benk","debtorName":"Benk"}]'
)


def signed(method, path, body=b""):
    command = [BIN, "sign", "--cert-dir", CERTS, "-X", method, "--url", f"http://{AUTHORITY}{path}"]
    if body:
        command += ["-d", body.decode()]
    headers = subprocess.run(command, capture_output=True, text=True, check=True).stdout.splitlines()
    head = f"{method} {path} HTTP/1.1\r\nHost: {AUTHORITY}\r\n"
    head += "".join(f"{line}\r\n" for line in headers if ":" in line)
    if body:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return (head + "\r\n").encode() + body


def answer(stream):
    data = b""
    while b"\r\n\r\n" not in data:
        data += stream.recv(65536)
    head, body = data.split(b"\r\n\r\n", 1)
    length = next(
        (int(line.split(b":")[1]) for line in head.lower().split(b"\r\n") if line.startswith(b"content-length:")),
        0,
    )
    while len(body) < length:
        body += stream.recv(65536)
    return int(head[9:12]), body


host, port = AUTHORITY.rsplit(":", 1)
stream = socket.create_connection((host, int(port)))
stream.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
stream.sendall(signed("GET", "/v1/sandbox/customers"))
status, body = answer(stream)
assert status == 200, (status, body)
accounts = [a if isinstance(a, str) else a["id"] for c in json.loads(body) for a in c.get("accounts", [])]
request = signed("POST", f"/v1/sandbox/accounts/{accounts[0]}/transactions", BODY)
for _ in range(COUNT):
    stream.sendall(request)
    status, body = answer(stream)
    assert status == 201, (status, body)
