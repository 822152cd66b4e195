#!/usr/bin/env bash
# A throwaway CA and NATS server certificate, for compose and the tests (Kubernetes issues its
# own with cert-manager: docs/deploy.md, "NATS TLS"):
#   bash scripts/deploy/nats-tls.sh <dir>
# writes <dir>/ca.pem (what clients trust: NATS_TLS_CA), <dir>/server-cert.pem and
# <dir>/server-key.pem. The server certificate names `nats` (the compose service), localhost
# and 127.0.0.1, and expires after 30 days; the CA's key is deleted, so nothing else can be
# signed with it.
set -euo pipefail
dir="${1:?usage: nats-tls.sh <dir>}"
mkdir -p "$dir"
cd "$dir"
umask 077
ec=(-newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes)
openssl req -x509 "${ec[@]}" -days 30 -subj "/CN=adrank NATS CA (throwaway)" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -keyout ca-key.pem -out ca.pem 2>/dev/null
openssl req "${ec[@]}" -subj "/CN=nats" -keyout server-key.pem -out server.csr 2>/dev/null
printf 'subjectAltName=DNS:nats,DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n' >server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 30 -extfile server.ext -out server-cert.pem 2>/dev/null
rm -f server.csr server.ext ca.srl ca-key.pem
# The NATS container runs as its own user (nobody in the offline image): it must read the key.
chmod 644 ca.pem server-cert.pem server-key.pem
