# Node for the offline images: the project's own Node 24 binary and npm, both taken from the
# npm registry by scripts/deploy/build-base-images.sh, on the Debian base it built. Stands in
# for node:24-slim, with the same `node` user (uid 1000). extra-ca/ holds the certificates
# the building machine trusts beyond Debian's (it may be empty).
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
COPY extra-ca/ /usr/local/share/ca-certificates/
RUN update-ca-certificates >/dev/null
# Node reads its own CA list; this adds the system's, extra certificates included.
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
COPY node/ /usr/local/
COPY npm/ /usr/local/lib/node_modules/npm/
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --create-home --shell /bin/sh node \
 && node --version && npm --version
CMD ["node"]
