# Sourced by .ci/run (which defines as_root and apt_install): a PostgreSQL for the tests on a
# machine that has none. Kept apart so it can be tried on another port and folder:
#   as_root() { "$@"; }; apt_install() { apt-get install -y postgresql; }
#   . .ci/postgres.sh; start_postgres 55432 /tmp/pg-try; …; stop_postgres /tmp/pg-try

# Debian's server programs (initdb, pg_ctl, createdb) of the newest installed version, if any.
postgres_bin() {
  { ls -d /usr/lib/postgresql/*/bin 2>/dev/null || true; } | sort -V | tail -n 1
}

# Runs a command as the postgres user (initdb refuses to run as root).
as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"
  elif [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"
  else sudo -u postgres "$@"; fi
}

# Installs Debian's postgresql package when no server programs are there. The package creates
# and may start a "main" cluster on 5432 with password authentication: on this machine, where
# nothing answered on 5432 before, that cluster is the package's own fresh one and is stopped,
# so the test server below can take the port.
install_postgres() {
  [ -n "$(postgres_bin)" ] && return 0
  apt_install postgresql
  local version
  version="$(basename "$(dirname "$(postgres_bin)")")"
  if [ "${1:-}" = 5432 ] && command -v pg_ctlcluster >/dev/null; then
    as_root pg_ctlcluster "$version" main stop 2>/dev/null || true
  fi
}

# Starts a throw-away server on 127.0.0.1:<port> with its data in <dir> (made anew): trust
# authentication, user postgres, database test. Only for tests: anyone on this machine may connect.
start_postgres() {
  local port="$1" dir="$2" bin
  install_postgres "$port"
  bin="$(postgres_bin)"
  as_root rm -rf "$dir"
  as_root mkdir -p "$dir"
  as_root chown postgres "$dir"
  as_postgres "$bin/initdb" --pgdata="$dir/data" --username=postgres --auth=trust \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  as_postgres "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait \
    --options="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir" \
    start >/dev/null
  "$bin/createdb" --host=127.0.0.1 --port="$port" --username=postgres test
}

# Stops a server start_postgres started and removes its folder.
stop_postgres() {
  local dir="$1"
  as_postgres "$(postgres_bin)/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null
  as_root rm -rf "$dir"
}
