# PostgreSQL for the offline images: Debian's postgresql-15 on the Debian base. Honours the
# upstream image's POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB and its data folder, so
# the compose file works with either.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
ENV PGDATA=/var/lib/postgresql/data PATH=/usr/lib/postgresql/15/bin:$PATH
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
RUN chmod 0755 /usr/local/bin/postgres-entrypoint.sh \
 && mkdir -p "$PGDATA" /run/postgresql && chown -R postgres:postgres /var/lib/postgresql /run/postgresql
USER postgres
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
