# Sourced by .ci/run (bash): a throwaway PostgreSQL cluster that belongs to this CI run.
#
# Installs Debian's postgresql when missing, runs initdb into a new temporary folder, starts the
# server on a free loopback port with its unix socket in that folder, creates the database
# citysim_test and exports CITYSIM_TEST_POSTGRES_URL. An EXIT trap stops the server and removes
# the folder. PostgreSQL refuses to run as root, so as root the cluster runs as the postgres user
# (created by the Debian package) through runuser.
#
#   source .ci/postgres.sh && swift test    # the PostgreSQL store tests run too

# The client package alone also makes /usr/lib/postgresql/N/bin, so look for the server's initdb.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  citysim_sudo=""; [ "$(id -u)" -ne 0 ] && citysim_sudo="sudo"
  $citysim_sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $citysim_sudo apt-get install -y -qq postgresql >/dev/null
fi
CITYSIM_PG_BIN="$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")"
CITYSIM_PG_DIR="$(mktemp -d /tmp/citysim-ci-pg.XXXXXX)"
CITYSIM_PG_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
if [ "$(id -u)" -eq 0 ]; then
  chown postgres: "$CITYSIM_PG_DIR"
  citysim_pg() { runuser -u postgres -- "$CITYSIM_PG_BIN/$@"; }
else
  citysim_pg() { "$CITYSIM_PG_BIN/$@"; }
fi

citysim_pg_stop() {
  citysim_pg pg_ctl -D "$CITYSIM_PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$CITYSIM_PG_DIR"
}
trap citysim_pg_stop EXIT

citysim_pg initdb -D "$CITYSIM_PG_DIR/data" -U citysim --auth=trust -E UTF8 --no-locale >/dev/null
# fsync off: the cluster is thrown away at the end, and the tests measure behaviour, not durability.
citysim_pg pg_ctl -D "$CITYSIM_PG_DIR/data" -l "$CITYSIM_PG_DIR/server.log" -w -o \
  "-c listen_addresses=127.0.0.1 -p $CITYSIM_PG_PORT -k $CITYSIM_PG_DIR -c max_connections=200 -c fsync=off" start >/dev/null
citysim_pg createdb -h "$CITYSIM_PG_DIR" -p "$CITYSIM_PG_PORT" -U citysim citysim_test
export CITYSIM_TEST_POSTGRES_URL="postgres://citysim@127.0.0.1:$CITYSIM_PG_PORT/citysim_test"
echo "PostgreSQL $("$CITYSIM_PG_BIN/postgres" --version | awk '{print $3}') for the tests: $CITYSIM_TEST_POSTGRES_URL"
