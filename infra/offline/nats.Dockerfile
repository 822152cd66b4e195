# NATS for the offline images: Debian 13's nats-server binary (2.10, JetStream included; see
# scripts/deploy/build-base-images.sh) on the Debian base.
# Same contract as the upstream image the compose file names: the entry point is the server,
# the compose `command` passes its arguments.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
COPY nats-server /usr/sbin/nats-server
RUN mkdir -p /data && chown nobody:nogroup /data
USER nobody
EXPOSE 4222 8222
ENTRYPOINT ["/usr/sbin/nats-server"]
